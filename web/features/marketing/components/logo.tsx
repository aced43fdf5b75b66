import { brand } from '../../../../api/contract/brand';

/** The brand mark: a stylised road into a speech bubble, then the product name. */
export function Logo({ inverted = false }: { inverted?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2">
      <svg viewBox="0 0 32 32" className="size-8 shrink-0" aria-hidden="true">
        <rect width="32" height="32" rx="8" fill={inverted ? '#ffffff' : '#333399'} />
        <path d="M9 23 14 9h4l5 14h-3.6l-1-3.2h-4.8l-1 3.2Zm5.3-6.1h3.4L16 11.6Z" fill={inverted ? '#333399' : '#ffffff'} />
        <circle cx="24.5" cy="8.5" r="3" fill="#dc2626" />
      </svg>
      <span className={`text-xl font-extrabold tracking-tight ${inverted ? 'text-white' : 'text-slate-900'}`}>{brand.product}</span>
    </span>
  );
}
