import { FileText, LifeBuoy, MessageSquare, Presentation, Rocket } from 'lucide-react';
import type { ComponentType } from 'react';
import type { AdminCounts } from '../../../../api/contract/leads';
import { useAdminCounts } from '../api/queries';

/** A card's total, and the tab it shows. */
export type CountCardKey = Exclude<keyof AdminCounts, 'byStatus' | 'unreadChats'>;

const cards: { key: CountCardKey; label: string; icon: ComponentType<{ className?: string }> }[] = [
  { key: 'contact', label: 'Contact Forms', icon: FileText },
  { key: 'support', label: 'Support Tickets', icon: LifeBuoy },
  { key: 'demo', label: 'Demo Requests', icon: Presentation },
  { key: 'getStarted', label: 'Get Started Requests', icon: Rocket },
  { key: 'chatSessions', label: 'Chat Sessions', icon: MessageSquare },
];

const numberFormat = new Intl.NumberFormat('en-US');

/**
 * Five totals counted by the server (never the length of a loaded page), moved live until its next
 * figures. Each is a button that shows its tab with every status.
 */
export function CountCards({ onShow }: { onShow: (key: CountCardKey) => void }) {
  const counts = useAdminCounts();
  return (
    // Three small cards to a row on a phone, so the tabs stay near the top.
    <ul className="grid grid-cols-3 gap-2 sm:gap-3 lg:grid-cols-5" aria-label="Totals">
      {cards.map(({ key, label, icon: Icon }) => (
        <li key={key} data-testid={`count-${key}`}>
          <button
            type="button"
            onClick={() => onShow(key)}
            aria-label={`Show ${label}`}
            aria-describedby={`count-figure-${key}`}
            className="block h-full w-full min-w-0 cursor-pointer rounded-lg border border-slate-200 bg-white p-2 text-left sm:p-4 shadow-sm transition hover:border-brand/40 hover:bg-brand-light/50 hover:shadow-md focus-visible:outline-3 focus-visible:outline-offset-2"
          >
            <span className="flex items-start justify-between gap-2">
              <span className="text-xs leading-tight font-medium text-slate-600 sm:text-sm">{label}</span>
              <Icon className="size-4 shrink-0 text-brand max-sm:hidden" aria-hidden="true" />
            </span>
            <span id={`count-figure-${key}`} data-figure className="mt-1 block text-lg font-bold sm:mt-2 sm:text-2xl text-slate-900 tabular-nums">
              {counts ? numberFormat.format(counts[key]) : '–'}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
