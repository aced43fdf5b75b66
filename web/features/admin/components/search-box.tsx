import { Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';

/** Typing in a search box asks the server once the typing pauses. */
export const searchDebounceMs = 300;

/** A tab's search box: the server does the matching (`?q=`), asked once typing pauses. */
export function SearchBox({ label, placeholder, initial, onSearch }: { label: string; placeholder: string; initial: string; onSearch: (query: string) => void }) {
  const [query, setQuery] = useState(initial);
  const debounce = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(debounce.current), []);

  return (
    <label className="relative block w-full max-w-sm">
      <span className="sr-only">{label}</span>
      <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-slate-400" aria-hidden="true" />
      <input
        type="search"
        value={query}
        onChange={(event) => {
          const value = event.target.value;
          setQuery(value);
          clearTimeout(debounce.current);
          debounce.current = setTimeout(() => onSearch(value.trim()), searchDebounceMs);
        }}
        placeholder={placeholder}
        className="w-full rounded-md border border-slate-300 py-2 pr-3 pl-8 text-sm focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none"
      />
    </label>
  );
}
