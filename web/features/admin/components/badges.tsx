import type { ReactNode } from 'react';
import { optionLabel } from '../lib/format';
import { supportPriorities } from '../../../../api/contract/leads';

/** Priority colours: low green, medium yellow, high red, urgent purple. */
export const priorityClasses: Record<string, string> = {
  low: 'bg-green-100 text-green-800',
  medium: 'bg-yellow-100 text-yellow-800',
  high: 'bg-red-100 text-red-800',
  urgent: 'bg-purple-100 text-purple-800',
};

export function Badge({ className, children, label }: { className: string; children: ReactNode; label?: string }) {
  return (
    <span aria-label={label} className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ${className}`}>
      {children}
    </span>
  );
}

export function PriorityBadge({ priority }: { priority: string }) {
  return (
    <Badge className={priorityClasses[priority] ?? 'bg-slate-100 text-slate-700'}>
      <span data-priority={priority}>{optionLabel(supportPriorities, priority)}</span>
    </Badge>
  );
}

export function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <Badge className="bg-cta text-white" label={`${count} unread`}>
      {count}
    </Badge>
  );
}
