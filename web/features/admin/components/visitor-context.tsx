import { useQuery } from '@tanstack/react-query';
import { ChevronDown } from 'lucide-react';
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { ChatSessionContext } from '../../../../api/contract/chat';
import { leadStatusLabels } from '../../../../api/contract/leads';
import { chatContextQuery } from '../api/lead-queries';
import { chatPath, leadPath } from '../lib/admin-paths';
import { ContactTimeline } from './contact-timeline';
import { formatDate, formatLocalTime, formatTime } from '../lib/format';
import { leadKindNames } from '../lib/lead-fields';
import { describeUserAgent } from '../lib/user-agent';

const statusLabels = { open: 'Open', resolved: 'Resolved' } as const;
const localTimeRefreshMs = 30_000;

/** The path of a page address (the site is known), or the address itself when it is not one. */
function pagePath(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/** The time now, moved on every `everyMs`. */
function useNow(everyMs: number): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** Earlier conversations, leads: each a link with its title and a line of detail; "None" when there are none. */
function LinkList({ label, links }: { label: string; links: { key: string; to: string; title: string; detail: string }[] }) {
  if (links.length === 0) return none('None');
  return (
    <ul className="space-y-1.5" aria-label={label}>
      {links.map((link) => (
        <li key={link.key}>
          <Link to={link.to} className="block rounded px-1 -mx-1 hover:bg-slate-50">
            <span className="block truncate font-medium text-brand">{link.title}</span>
            <span className="block text-xs text-slate-500">{link.detail}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function Item({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{term}</dt>
      <dd className="mt-1 text-sm break-words text-slate-900">{children}</dd>
    </div>
  );
}

const none = (text: string) => <span className="text-slate-500">{text}</span>;

function ContextDetails({ context }: { context: ChatSessionContext }) {
  const now = useNow(localTimeRefreshMs);
  const localTime = context.timeZone ? formatLocalTime(context.timeZone, now) : null;
  const device = context.userAgent ? describeUserAgent(context.userAgent) : null;
  // The first message's page stands in for a visit the widget sent no pages of (an older widget).
  const pages = context.pages.length > 0 ? context.pages : context.pageUrl ? [{ url: context.pageUrl, at: null }] : [];
  return (
    <dl className="space-y-4">
      <Item term="Local time">
        {localTime ? (
          <>
            <span data-testid="visitor-local-time">{localTime}</span> <span className="text-slate-500">({context.timeZone})</span>
          </>
        ) : (
          none('Unknown')
        )}
      </Item>
      <Item term="Pages this visit">
        {pages.length > 0 ? (
          <ol className="space-y-1" aria-label="Pages this visit">
            {pages.map((page, index) => (
              <li key={`${index}-${page.url}`} className="flex justify-between gap-2">
                <span className="min-w-0 font-mono text-xs break-all" title={page.url}>
                  {pagePath(page.url)}
                </span>
                {page.at ? <span className="shrink-0 text-xs text-slate-500">{formatTime(page.at)}</span> : null}
              </li>
            ))}
          </ol>
        ) : (
          none('None recorded')
        )}
      </Item>
      <Item term="Referrer">{context.referrer ? <span className="break-all">{context.referrer}</span> : none('None (came directly)')}</Item>
      <Item term="Browser and device">
        {device ? (
          <span title={context.userAgent ?? undefined}>
            {device.browser} on {device.os} · {device.device}
          </span>
        ) : (
          none('Unknown')
        )}
      </Item>
      <Item term="Earlier conversations">
        <LinkList
          label="Earlier conversations"
          links={context.earlierConversations.map((conversation) => ({
            key: conversation.id,
            to: chatPath(conversation.id),
            title: conversation.lastMessage,
            detail: `${formatDate(conversation.lastActivity)} · ${conversation.messageCount} messages · ${statusLabels[conversation.status]}`,
          }))}
        />
      </Item>
      <Item term="Leads with this email">
        <LinkList
          label="Leads with this email"
          links={context.leads.map((lead) => ({
            key: `${lead.kind}-${lead.id}`,
            to: leadPath(lead.kind, lead.id),
            title: `${leadKindNames[lead.kind].one}: ${lead.summary}`,
            detail: `${formatDate(lead.createdAt)} · ${leadStatusLabels[lead.status]}`,
          }))}
        />
      </Item>
      <Item term="Timeline">
        {context.email ? <ContactTimeline email={context.email} current={{ type: 'conversation', id: context.sessionId }} /> : none('No email given')}
      </Item>
    </dl>
  );
}

/**
 * Who the visitor is, beside the open conversation: a column of its own on wide screens, a section
 * that opens and closes below it on narrower ones.
 */
export function VisitorContext({ sessionId, className = '' }: { sessionId: string; className?: string }) {
  const query = useQuery(chatContextQuery(sessionId));
  const [expanded, setExpanded] = useState(false);
  const contentId = useId();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId} className={`min-w-0 rounded-lg border border-slate-200 bg-white ${className}`}>
      <h2 id={titleId} className="max-xl:sr-only px-4 pt-3 text-sm font-semibold text-slate-900">
        Visitor
      </h2>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={contentId}
        onClick={() => setExpanded((open) => !open)}
        className="flex w-full items-center justify-between px-4 py-3 text-sm font-semibold text-slate-900 xl:hidden"
      >
        Visitor context
        <ChevronDown className={`size-4 transition-transform ${expanded ? 'rotate-180' : ''}`} aria-hidden="true" />
      </button>
      <div id={contentId} className={`px-4 pb-4 xl:pt-3 ${expanded ? '' : 'max-xl:hidden'}`}>
        {query.data ? (
          <ContextDetails context={query.data} />
        ) : query.isError ? (
          <p className="text-sm text-slate-600" role="alert">
            Could not load the visitor&apos;s context.{' '}
            <button type="button" onClick={() => void query.refetch()} className="font-medium text-brand hover:underline">
              Try again
            </button>
          </p>
        ) : (
          <p className="text-sm text-slate-500" aria-busy="true">
            Loading...
          </p>
        )}
      </div>
    </section>
  );
}
