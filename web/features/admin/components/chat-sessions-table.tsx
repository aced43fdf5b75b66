import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AssigneeFilter } from '../../../../api/contract/assignment';
import { chatSenderLabel, chatSessionStatuses, type ChatSessionStatus, type ChatSessionSummary } from '../../../../api/contract/chat';
import { useAdminCounts, useChatSessionList } from '../api/queries';
import { useSetChatStatus } from '../api/chat-writes';
import { chatPath } from '../lib/admin-paths';
import { useAssigneeFilter } from '../stores/assignee-filter-store';
import { formatDate, shortSessionId } from '../lib/format';
import { Badge, UnreadBadge } from './badges';
import { ViewersMark } from './collision-notice';
import { RatingBadge } from './rating-badge';
import { ResolveUnreadDialog } from './resolve-unread-dialog';
import { SearchBox } from './search-box';
import { StatusFilter, type StatusFilterOption } from './status-filter';
import { AssigneeFilterBar } from './assignee-filter';
import { AssigneeName } from './assignee-name';
import { AutoAssignmentSettings } from './auto-assignment-settings';
import { type Column, VirtualTable } from './virtual-table';

const statusLabels: Record<ChatSessionStatus, string> = { open: 'Open', resolved: 'Resolved' };

/** A status chosen in a row's select; the table decides whether to ask first. */
type StatusChange = (session: ChatSessionSummary, status: ChatSessionStatus) => void;

function ChatStatusSelect({ session, onChange }: { session: ChatSessionSummary; onChange: StatusChange }) {
  return (
    <select
      aria-label={`Status of chat ${shortSessionId(session.id)}`}
      value={session.status}
      onChange={(event) => onChange(session, event.target.value as ChatSessionStatus)}
      className={`w-full rounded-md border px-2 py-1 text-xs font-medium ${
        session.status === 'open' ? 'border-blue-200 bg-blue-50 text-blue-800' : 'border-slate-200 bg-slate-100 text-slate-600'
      }`}
    >
      {chatSessionStatuses.map((status) => (
        <option key={status} value={status}>
          {statusLabels[status]}
        </option>
      ))}
    </select>
  );
}

function ViewButton({ session }: { session: ChatSessionSummary }) {
  const navigate = useNavigate();
  return (
    <button
      type="button"
      // The conversation opens at its own address, in the pane beside the list.
      onClick={() => void navigate(chatPath(session.id))}
      aria-label={`View & Reply to chat ${shortSessionId(session.id)}`}
      data-view-session={session.id}
      className="rounded-md bg-brand px-3 py-1.5 text-xs font-semibold whitespace-nowrap text-white hover:bg-brand-dark"
    >
      View & Reply
    </button>
  );
}

/** The chat columns: session, sender, last message, count, last activity, status, and View & Reply. */
function chatColumns(onStatusChange: StatusChange): Column<ChatSessionSummary>[] {
  return [
    {
      key: 'session',
      header: 'Session',
      width: '7.5rem',
      cell: (session) => (
        <span className="inline-flex items-center gap-1.5">
          <span className="font-mono text-xs" title={session.id}>
            {shortSessionId(session.id)}
          </span>
          <UnreadBadge count={session.unreadCount} />
          <RatingBadge rating={session.rating} />
        </span>
      ),
    },
    {
      key: 'sender',
      header: 'Sender',
      width: '14rem',
      cell: (session) => (
        <span className="inline-flex max-w-full items-center gap-1.5">
          <span className={`truncate ${session.unreadCount > 0 ? 'font-semibold text-slate-900' : ''}`}>{chatSenderLabel(session)}</span>
          {session.hasCustomerMessage ? <Badge className="bg-blue-100 text-blue-800">Customer</Badge> : null}
          <ViewersMark sessionId={session.id} />
        </span>
      ),
    },
    { key: 'last', header: 'Last Message', width: '13.5rem', cell: (session) => <span title={session.lastMessage}>{session.lastMessage}</span> },
    { key: 'count', header: 'Messages', width: '6rem', cell: (session) => session.messageCount },
    { key: 'activity', header: 'Last Activity', width: '12.5rem', cell: (session) => formatDate(session.lastActivity) },
    { key: 'assignee', header: 'Assignee', width: '6.5rem', cell: (session) => <AssigneeName name={session.assigneeName} /> },
    {
      key: 'status',
      header: 'Status',
      width: '7.5rem',
      control: true,
      cell: (session) => <ChatStatusSelect session={session} onChange={onStatusChange} />,
    },
    { key: 'actions', header: 'Actions', width: '8rem', control: true, cell: (session) => <ViewButton session={session} /> },
  ];
}

function useChatStatusOptions(): StatusFilterOption<ChatSessionStatus>[] {
  const counts = useAdminCounts();
  return [
    { value: null, label: 'All', count: counts?.chatSessions },
    ...chatSessionStatuses.map((status) => ({ value: status, label: statusLabels[status], count: counts?.byStatus.chatSessions[status] })),
  ];
}

/** What an empty list lacks under its filters; "yet" only when nothing is filtered out. */
function emptyChatsText(query: string, status: ChatSessionStatus | null, assignee: AssigneeFilter): string {
  const kind = [status ? statusLabels[status].toLowerCase() : '', assignee === 'unassigned' ? 'unassigned' : '', 'chat sessions'].filter(Boolean).join(' ');
  const what = assignee === 'mine' ? `${kind} assigned to you` : kind;
  if (query) return `No ${what} match "${query}".`;
  return status || assignee !== 'all' ? `No ${what}.` : `No ${what} yet.`;
}

/** `compact`: beside an open conversation, each session is a card that fits the narrow list. */
export function ChatSessionsTable({ compact = false }: { compact?: boolean }) {
  const {
    rows: sessions,
    loading,
    loadingMore,
    hasMore,
    loadMore: loadMoreChats,
    query: chatQuery,
    search: searchChats,
    status: chatStatus,
    filterByStatus: filterChats,
  } = useChatSessionList();
  const statusOptions = useChatStatusOptions();
  const assignee = useAssigneeFilter((state) => state.assignee);
  const onEndReached = useCallback(() => loadMoreChats(), [loadMoreChats]);
  const setChatStatus = useSetChatStatus();
  // Held here, not in the row: a virtual row may unmount (a push moves it out of view) while it asks.
  const [confirmingResolve, setConfirmingResolve] = useState<string | null>(null);
  const onStatusChange = useCallback<StatusChange>(
    (session, status) => {
      if (status === 'resolved' && session.unreadCount > 0) setConfirmingResolve(session.id);
      else void setChatStatus(session.id, status);
    },
    [setChatStatus],
  );
  const columns = useMemo(() => chatColumns(onStatusChange), [onStatusChange]);
  return (
    <div className="space-y-3">
      <AutoAssignmentSettings />
      <div className="flex flex-wrap gap-2">
        <AssigneeFilterBar />
        <StatusFilter label="Filter Chat Messages by status" options={statusOptions} selected={chatStatus} onSelect={(status) => filterChats(status)} />
      </div>
      <SearchBox
        label="Search Chat Messages"
        placeholder="Search sender, session or message"
        initial={chatQuery}
        onSearch={(query) => searchChats(query)}
      />
      <VirtualTable<ChatSessionSummary>
        label="Chat Messages"
        rows={sessions}
        rowKey={(session) => session.id}
        columns={columns}
        hasMore={hasMore}
        loading={loading}
        loadingMore={loadingMore}
        onEndReached={onEndReached}
        stacked={compact ? true : undefined}
        emptyText={emptyChatsText(chatQuery, chatStatus, assignee)}
      />
      <ResolveUnreadDialog
        sessionId={confirmingResolve}
        onResolve={(sessionId) => {
          setConfirmingResolve(null);
          void setChatStatus(sessionId, 'resolved');
        }}
        onCancel={() => setConfirmingResolve(null)}
      />
    </div>
  );
}
