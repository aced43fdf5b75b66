import { chatSessionIdSchema } from '../../../../api/contract/chat';
import { ChatSessionsTable } from './chat-sessions-table';
import { ConversationPane } from './conversation-pane';
import { VisitorContext } from './visitor-context';

/**
 * The Chat Messages tab. With a conversation open (`/admin/chats/:sessionId`), on a desktop the
 * list and the conversation sit side by side, with the visitor's context as a third column from
 * 1280 px (below the conversation, folded, before that); on a phone the conversation takes the
 * screen and Back returns to the list.
 */
export function ChatInbox({ openSessionId, onClose }: { openSessionId: string | undefined; onClose: () => void }) {
  const open = openSessionId !== undefined;
  const known = open && chatSessionIdSchema.safeParse(openSessionId).success;
  // One tree whether a conversation is open or not: the list keeps its scroll and search across.
  return (
    <div
      className={
        open ? 'gap-4 max-lg:space-y-4 lg:grid lg:grid-cols-[20rem_minmax(0,1fr)] lg:items-start xl:grid-cols-[22rem_minmax(0,1fr)_18rem]' : ''
      }
    >
      <div className={open ? 'min-w-0 max-lg:hidden' : ''}>
        <ChatSessionsTable compact={open} />
      </div>
      {!open ? null : known ? (
        <>
          <ConversationPane onClose={onClose} />
          <VisitorContext key={openSessionId} sessionId={openSessionId} className="lg:col-start-2 xl:col-start-3 xl:row-start-1" />
        </>
      ) : (
        <section className="rounded-lg border border-slate-200 bg-white p-5" role="alert" aria-labelledby="chat-not-found">
          <h2 id="chat-not-found" className="text-lg font-semibold text-slate-900">
            Conversation not found
          </h2>
          <p className="mt-1 text-sm text-slate-600">This address names no conversation. The link may be wrong or incomplete.</p>
          <button type="button" onClick={onClose} className="mt-3 text-sm font-medium text-brand hover:underline">
            Back to Chat Messages
          </button>
        </section>
      )}
    </div>
  );
}
