import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { auditActionLabels, type AuditEntryView } from '../../../../api/contract/audit';
import { ApiError } from '../../../lib/api-client';
import { teamApi } from '../api/team-api';
import { useStaffSession } from '../session-store';
import { SearchBox } from './search-box';

const dateTime = new Intl.DateTimeFormat('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' });

/**
 * Who acted, as they were then: the display name they had (a rename since changes nothing), and the
 * account's email and id, which no one can take from another member.
 */
function Actor({ entry }: { entry: AuditEntryView }) {
  if (entry.actorId === null) return <span className="font-medium text-slate-900">Lotwise (automatic)</span>;
  return (
    <span className="min-w-0" data-testid="audit-actor">
      <span className="block font-medium text-slate-900">{entry.actorName}</span>
      <span className="block truncate text-xs text-slate-500">
        {entry.actorEmail ?? 'account gone'} · #{entry.actorId}
      </span>
    </span>
  );
}

function Entry({ entry }: { entry: AuditEntryView }) {
  return (
    <li className="grid gap-x-4 gap-y-0.5 px-4 py-3 text-sm sm:grid-cols-[13rem_14rem_1fr]" data-testid="audit-entry">
      <time dateTime={entry.at} className="text-slate-500 tabular-nums">
        {dateTime.format(new Date(entry.at))}
      </time>
      <Actor entry={entry} />
      <span className="text-slate-700">
        {auditActionLabels[entry.action] ?? entry.action}
        {entry.subject ? <span className="text-slate-900">: {entry.subject}</span> : null}
        {entry.detail ? <span className="text-slate-500"> ({entry.detail})</span> : null}
      </span>
    </li>
  );
}

/** /admin/audit: who did what and when, newest first, a page at a time; never the data itself. Admins only. */
export function AuditScreen() {
  const isAdmin = useStaffSession((state) => state.account?.role === 'admin');
  const [search, setSearch] = useState('');
  const log = useInfiniteQuery({
    queryKey: ['audit', search],
    queryFn: ({ pageParam }) => teamApi.audit({ before: pageParam, q: search }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
    enabled: isAdmin,
  });

  if (!isAdmin) {
    return (
      <section className="rounded-xl border border-slate-200 bg-white p-6">
        <h2 className="text-lg font-semibold text-slate-900">Audit log</h2>
        <p className="mt-2 text-sm text-slate-600">Only admins can read the audit log.</p>
      </section>
    );
  }
  const entries = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h2 className="text-2xl font-bold text-slate-900">Audit log</h2>
          <p className="text-sm text-slate-600">Who did what, and when. Newest first.</p>
        </div>
        <SearchBox label="Search the audit log" placeholder="Search by action, person or subject" initial={search} onSearch={setSearch} />
      </div>
      <section aria-label="Audit entries" className="rounded-xl border border-slate-200 bg-white">
        <div className="hidden border-b border-slate-200 px-4 py-2 text-xs font-semibold tracking-wide text-slate-500 uppercase sm:grid sm:grid-cols-[13rem_14rem_1fr] sm:gap-x-4">
          <span>When</span>
          <span>Who</span>
          <span>What</span>
        </div>
        {log.isPending ? (
          <p className="px-4 py-3 text-sm text-slate-500">Loading...</p>
        ) : log.isError ? (
          <p role="alert" className="px-4 py-3 text-sm text-red-700">
            Could not load the audit log{log.error instanceof ApiError && log.error.serverMessage ? `: ${log.error.serverMessage}` : '.'}
          </p>
        ) : entries.length === 0 ? (
          <p className="px-4 py-3 text-sm text-slate-500">{search ? 'Nothing matches that search.' : 'Nothing recorded yet.'}</p>
        ) : (
          <ol className="divide-y divide-slate-100">
            {entries.map((entry) => (
              <Entry key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      </section>
      {log.hasNextPage ? (
        <button
          type="button"
          onClick={() => void log.fetchNextPage()}
          disabled={log.isFetchingNextPage}
          className="rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-700 hover:bg-slate-50 disabled:opacity-70"
        >
          {log.isFetchingNextPage ? 'Loading...' : 'Show older entries'}
        </button>
      ) : null}
    </div>
  );
}
