const numberFormat = new Intl.NumberFormat('en-US');

export interface StatusFilterOption<S extends string> {
  /** null: every status ("All"). */
  value: S | null;
  label: string;
  /** The server's figure; undefined until the counts come. */
  count: number | undefined;
}

/**
 * A list's status filter: one pressed button of a row ("All 40 · New 12 · ..."), each with its
 * figure. Buttons with aria-pressed, so Tab reaches each and Space or Enter chooses it. The row wraps
 * rather than scroll sideways on a phone.
 */
export function StatusFilter<S extends string>({
  label,
  options,
  selected,
  onSelect,
}: {
  label: string;
  options: StatusFilterOption<S>[];
  selected: S | null;
  onSelect: (value: S | null) => void;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex max-w-full flex-wrap gap-1 rounded-lg border border-slate-200 bg-white p-1">
      {options.map(({ value, label: optionLabel, count }) => {
        const pressed = value === selected;
        return (
          <button
            key={value ?? 'all'}
            type="button"
            aria-pressed={pressed}
            onClick={() => {
              if (!pressed) onSelect(value);
            }}
            className={`inline-flex items-center gap-1.5 rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-3 focus-visible:outline-offset-1 ${
              pressed ? 'bg-brand text-white' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
            }`}
          >
            {optionLabel}{' '}
            <span className={`tabular-nums text-xs ${pressed ? 'text-white/90' : 'text-slate-500'}`}>{count === undefined ? '–' : numberFormat.format(count)}</span>
          </button>
        );
      })}
    </div>
  );
}
