import { brand } from '../../../../api/contract/brand';

/** The brand mark (the favicon's L, with a red chat dot), then the product name. */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill={inverted ? '#ffffff' : '#333399'} />
        <path d="M10 8h4v12h8v4H10z" fill={inverted ? '#333399' : '#ffffff'} />
        <circle cx="24.5" cy="8.5" r="3" fill="#dc2626" />
      </svg>
      <span className={`text-xl font-extrabold tracking-tight ${inverted ? 'text-white' : 'text-slate-900'}`}>{brand.product}</span>
    </span>
  );
}
