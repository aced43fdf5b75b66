import { ArrowLeft, Plus } from 'lucide-react';
import type { VisitorChatSessionSummary } from '../../../../api/contract/chat-resync';
import type { ChatController } from '../controller';

const sameDayFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });
const sameYearFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric' });
const otherYearFormat = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** When a conversation was last active: the time today, the day this year, else the date. */
export function conversationDate(iso: string, now = new Date()): string {
  const date = new Date(iso);
  if (date.toDateString() === now.toDateString()) return sameDayFormat.format(date);
  return (date.getFullYear() === now.getFullYear() ? sameYearFormat : otherYearFormat).format(date);
}

function StatusBadge({ status }: { status: VisitorChatSessionSummary['status'] }) {
  return status === 'open' ? (
    <span className="rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800">Open</span>
  ) : (
    <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600">Closed</span>
  );
}

function ConversationRow({ session, current, onOpen }: { session: VisitorChatSessionSummary; current: boolean; onOpen: () => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={onOpen}
        aria-current={current ? 'true' : undefined}
        className={`flex w-full flex-col gap-1 rounded-xl px-3 py-2.5 text-left hover:bg-slate-50 focus-visible:bg-slate-50 ${current ? 'ring-1 ring-brand/40' : ''}`}
      >
        <span className="flex items-center justify-between gap-2 text-xs text-slate-500">
          <time dateTime={session.lastActivity}>{conversationDate(session.lastActivity)}</time>
          <span className="flex items-center gap-1.5">
            {current && <span className="font-medium text-brand">Current</span>}
            <StatusBadge status={session.status} />
          </span>
        </span>
        {/* The visitor's own words: text, never HTML. */}
        <span className="line-clamp-2 break-words text-sm text-slate-900">
          {session.lastMessageFromUser && <span className="text-slate-500">You: </span>}
          {session.lastMessage}
        </span>
      </button>
    </li>
  );
}

/** The visitor's conversations, newest first: open one to read it (and write to reopen it), or start a new one once the current is closed. */
export function PastConversations({ controller }: { controller: ChatController }) {
  const useChat = controller.store;
  const { pastSessions, sessionId, session, entries } = useChat();
  // A new conversation once the current one is closed; one with nothing in it yet is new already.
  const canStartNew = session?.status === 'resolved';
  const currentIsEmpty = entries.length === 0 && session === null;

  return (
    <div className="flex min-h-0 flex-1 flex-col">
      <div className="flex items-center gap-2 border-b border-slate-200 px-3 py-2">
        <button
          type="button"
          onClick={() => controller.showChat()}
          className="flex items-center gap-1 rounded-full px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100"
        >
          <ArrowLeft aria-hidden="true" className="size-4" />
          Back to chat
        </button>
      </div>
      <h3 className="px-4 pt-3 text-sm font-semibold text-slate-900">Your conversations</h3>
      {pastSessions === null ? (
        <p className="px-4 py-3 text-sm text-slate-500">Loading conversations...</p>
      ) : pastSessions.length === 0 ? (
        <p className="px-4 py-3 text-sm text-slate-500">No conversations yet. Ask us anything and it will show here.</p>
      ) : (
        <ul aria-label="Your conversations" className="min-h-0 flex-1 space-y-1 overflow-y-auto px-2 py-2">
          {pastSessions.map((past) => (
            <ConversationRow key={past.id} session={past} current={past.id === sessionId} onOpen={() => controller.openConversation(past.id)} />
          ))}
        </ul>
      )}
      {canStartNew && !currentIsEmpty && (
        <div className="border-t border-slate-200 p-3">
          <button
            type="button"
            onClick={() => controller.startNewConversation()}
            className="flex w-full items-center justify-center gap-2 rounded-full bg-brand px-4 py-2 text-sm font-semibold text-white hover:bg-brand-dark"
          >
            <Plus aria-hidden="true" className="size-4" />
            Start a new conversation
          </button>
        </div>
      )}
    </div>
  );
}
