import { FileText, LifeBuoy, MessageSquare, Presentation, Rocket } from 'lucide-react';
import type { ComponentType } from 'react';
import type { AdminCounts } from '../../../../api/contract/leads';
import { useCounts } from '../stores/counts-store';

const cards: { key: keyof AdminCounts; label: string; icon: ComponentType<{ className?: string }> }[] = [
  { key: 'contact', label: 'Contact Forms', icon: FileText },
  { key: 'support', label: 'Support Tickets', icon: LifeBuoy },
  { key: 'demo', label: 'Demo Requests', icon: Presentation },
  { key: 'getStarted', label: 'Get Started Requests', icon: Rocket },
  { key: 'chatSessions', label: 'Chat Sessions', icon: MessageSquare },
];

const numberFormat = new Intl.NumberFormat('en-US');

/** Five totals counted by the server (never the length of a loaded page), moved live until its next figures. */
export function CountCards() {
  const counts = useCounts((state) => state.counts);
  return (
    // Three small cards to a row on a phone, so the tabs stay near the top.
    <ul className="grid grid-cols-3 gap-2 sm:gap-3 lg:grid-cols-5" aria-label="Totals">
      {cards.map(({ key, label, icon: Icon }) => (
        <li key={key} className="min-w-0 rounded-lg border border-slate-200 bg-white p-2 shadow-sm sm:p-4" data-testid={`count-${key}`}>
          <div className="flex items-start justify-between gap-2">
            <span className="text-xs leading-tight font-medium text-slate-600 sm:text-sm">{label}</span>
            <Icon className="size-4 shrink-0 text-brand max-sm:hidden" aria-hidden="true" />
          </div>
          <p className="mt-1 text-lg font-bold text-slate-900 tabular-nums sm:mt-2 sm:text-2xl" aria-label={`${label}: ${counts ? counts[key] : 'loading'}`}>
            {counts ? numberFormat.format(counts[key]) : '–'}
          </p>
        </li>
      ))}
    </ul>
  );
}
