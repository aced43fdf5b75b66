import { FileText, LifeBuoy, MessageSquare, Presentation, Rocket } from 'lucide-react';
import type { ComponentType } from 'react';
import type { AdminCounts } from '../../../../api/contract/leads';
import { useCounts } from '../stores/counts-store';

const cards: { key: Exclude<keyof AdminCounts, 'byStatus'>; label: string; icon: ComponentType<{ className?: string }> }[] = [
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
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5" aria-label="Totals">
      {cards.map(({ key, label, icon: Icon }) => (
        <li key={key} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid={`count-${key}`}>
          <div className="flex items-center justify-between gap-2">
            <span className="text-sm font-medium text-slate-600">{label}</span>
            <Icon className="size-4 shrink-0 text-brand" aria-hidden="true" />
          </div>
          <p className="mt-2 text-2xl font-bold text-slate-900 tabular-nums" aria-label={`${label}: ${counts ? counts[key] : 'loading'}`}>
            {counts ? numberFormat.format(counts[key]) : '–'}
          </p>
        </li>
      ))}
    </ul>
  );
}
