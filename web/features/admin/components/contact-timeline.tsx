import { useQuery } from '@tanstack/react-query';
import { FileText, MessageSquare } from 'lucide-react';
import { useId } from 'react';
import { Link } from 'react-router-dom';
import type { ContactTimelineItem } from '../../../../api/contract/contacts';
import { type LeadKind, leadStatusLabels } from '../../../../api/contract/leads';
import { contactTimelineQuery } from '../api/timeline-queries';
import { chatPath, leadPath } from '../lib/admin-paths';
import { formatDate } from '../lib/format';
import { leadKindNames } from '../lib/lead-fields';

/** The lead or conversation being looked at: shown in its place, not as a link to itself. */
export type TimelineCurrent = { type: 'lead'; kind: LeadKind; id: number } | { type: 'conversation'; id: string };

const conversationStatus = { open: 'Open', resolved: 'Resolved' } as const;

function isCurrent(item: ContactTimelineItem, current: TimelineCurrent | undefined): boolean {
  if (!current || item.type !== current.type) return false;
  return item.type === 'lead' ? current.type === 'lead' && item.kind === current.kind && item.id === current.id : item.id === current.id;
}

function describe(item: ContactTimelineItem): { to: string; title: string; detail: string } {
  if (item.type === 'lead') {
    return {
      to: leadPath(item.kind, item.id),
      title: `${leadKindNames[item.kind].one}: ${item.summary}`,
      detail: `${formatDate(item.at)} · ${leadStatusLabels[item.status]}`,
    };
  }
  return {
    to: chatPath(item.id),
    title: `Conversation: ${item.lastMessage || 'No messages'}`,
    detail: `${formatDate(item.at)} · ${item.messageCount} ${item.messageCount === 1 ? 'message' : 'messages'} · ${conversationStatus[item.status]}`,
  };
}

/**
 * One contact, one timeline (DESIGN.md 11): every lead and conversation with this email, in any
 * case, newest first, each opening where it lives. The one being looked at is marked, not linked.
 */
export function ContactTimeline({ email, current }: { email: string; current?: TimelineCurrent }) {
  const query = useQuery(contactTimelineQuery(email));
  if (query.isError) {
    return (
      <p className="text-sm text-slate-600" role="alert">
        Could not load the timeline.{' '}
        <button type="button" onClick={() => void query.refetch()} className="font-medium text-brand hover:underline">
          Try again
        </button>
      </p>
    );
  }
  if (!query.data) {
    return (
      <p className="text-sm text-slate-500" aria-busy="true">
        Loading...
      </p>
    );
  }
  const { items, more } = query.data;
  if (items.length === 0) return <p className="text-sm text-slate-500">Nothing yet</p>;
  return (
    <>
      <ol className="space-y-1.5" aria-label={`Timeline of ${email}`}>
        {items.map((item) => {
          const { to, title, detail } = describe(item);
          const Icon = item.type === 'lead' ? FileText : MessageSquare;
          const here = isCurrent(item, current);
          const body = (
            <>
              <Icon className="mt-0.5 size-4 shrink-0 text-slate-400" aria-hidden="true" />
              <span className="min-w-0">
                <span className={`block truncate font-medium ${here ? 'text-slate-900' : 'text-brand'}`}>{title}</span>
                <span className="block text-xs text-slate-500">
                  {here ? `This ${item.type === 'lead' ? 'lead' : 'conversation'} · ` : ''}
                  {detail}
                </span>
              </span>
            </>
          );
          return (
            <li key={`${item.type}-${item.type === 'lead' ? `${item.kind}-${item.id}` : item.id}`}>
              {here ? (
                <div aria-current="true" className="-mx-1 flex gap-2 rounded bg-slate-50 px-1 py-0.5 text-sm">
                  {body}
                </div>
              ) : (
                <Link to={to} className="-mx-1 flex gap-2 rounded px-1 py-0.5 text-sm hover:bg-slate-50">
                  {body}
                </Link>
              )}
            </li>
          );
        })}
      </ol>
      {more ? <p className="mt-2 text-xs text-slate-500">Showing the newest {items.length}.</p> : null}
    </>
  );
}

/** The timeline as a card of its own, under a lead. */
export function ContactTimelineCard({ email, current }: { email: string; current: TimelineCurrent }) {
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className="rounded-lg border border-slate-200 bg-white p-4 sm:p-5">
      <h3 id={titleId} className="text-base font-semibold text-slate-900">
        Timeline
      </h3>
      <p className="mb-3 text-sm break-words text-slate-500">Every lead and conversation from {email}, newest first</p>
      <ContactTimeline email={email} current={current} />
    </section>
  );
}
