import { FileText, LifeBuoy, MessageSquare, Presentation, Rocket } from 'lucide-react';
import type { ComponentType } from 'react';
import type { AdminCounts } from '../../../../api/contract/leads';
import { useCounts } from '../stores/counts-store';

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
  const counts = useCounts((state) => state.counts);
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Totals">
      {cards.map(({ key, label, icon: Icon }) => (
        <li key={key} data-testid={`count-${key}`}>
          <button
            type="button"
            onClick={() => onShow(key)}
            aria-label={`Show ${label}`}
            aria-describedby={`count-figure-${key}`}
            className="block h-full w-full cursor-pointer rounded-lg border border-slate-200 bg-white p-4 text-left shadow-sm transition hover:border-brand/40 hover:bg-brand-light/50 hover:shadow-md focus-visible:outline-3 focus-visible:outline-offset-2"
          >
            <span className="flex items-center justify-between gap-2">
              <span className="text-sm font-medium text-slate-600">{label}</span>
              <Icon className="size-4 shrink-0 text-brand" aria-hidden="true" />
            </span>
            <span id={`count-figure-${key}`} data-figure className="mt-2 block text-2xl font-bold text-slate-900 tabular-nums">
              {counts ? numberFormat.format(counts[key]) : '–'}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
