import * as Dialog from '@radix-ui/react-dialog';
import { Send, X } from 'lucide-react';
import { type FormEvent, useEffect, useRef } from 'react';
import { chatLimits } from '../../../../api/contract/brand';
import { chatSenderLabel, type ChatMessage } from '../../../../api/contract/chat';
import { LinkedText } from '../../../components/ui/linked-text';
import { emitStaffTyping } from '../api/admin-socket';
import { chatDraftSubject } from '../lib/drafts';
import { useChatSessions } from '../stores/chat-sessions-store';
import { formatDate, formatTime } from '../lib/format';
import { useDraft } from '../use-draft';

/** Staff stop showing as typing to the visitor this long after their last keystroke. */
const staffTypingIdleMs = 2000;

function MessageBubble({ message }: { message: ChatMessage }) {
  const fromUser = message.isFromUser;
  return (
    <li className={`flex ${fromUser ? 'justify-start' : 'justify-end'}`} data-from={fromUser ? 'user' : 'support'}>
      <div className={`max-w-[80%] rounded-lg px-3 py-2 ${fromUser ? 'bg-slate-100 text-slate-900' : 'bg-brand text-white'}`}>
        <p className={`text-xs font-semibold ${fromUser ? 'text-slate-600' : 'text-white/80'}`}>
          {fromUser ? message.senderName || 'Customer' : 'Support'}
          <span className="ml-2 font-normal">{formatTime(message.createdAt)}</span>
        </p>
        <p className="mt-0.5 text-sm break-words whitespace-pre-wrap">
          <LinkedText text={message.message} />
        </p>
      </div>
    </li>
  );
}

/** The View & Reply dialog: the conversation, live, and a 3-row reply box whose unsent text is kept per conversation. */
export function ChatDialog() {
  const openChat = useChatSessions((state) => state.openChat);
  const session = useChatSessions((state) => state.chatSessions.find((known) => known.id === state.openChat?.sessionId));
  const visitorTyping = useChatSessions((state) => (state.openChat ? Boolean(state.visitorTyping[state.openChat.sessionId]) : false));
  const closeSession = useChatSessions((state) => state.closeSession);
  const sendReply = useChatSessions((state) => state.sendReply);
  const markOpenSessionRead = useChatSessions((state) => state.markOpenSessionRead);
  const sessionId = openChat?.sessionId;
  const [draft, setDraft] = useDraft(sessionId ? chatDraftSubject(sessionId) : null);
  const reply = draft ?? '';
  const listEnd = useRef<HTMLLIElement>(null);
  const replyBox = useRef<HTMLTextAreaElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const messageCount = openChat?.messages.length ?? 0;

  useEffect(() => {
    listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [messageCount, visitorTyping]);

  useEffect(() => {
    // Messages that arrived while the tab was hidden count as read once the staff member is back.
    const onVisible = () => {
      if (document.visibilityState === 'visible') markOpenSessionRead();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [markOpenSessionRead]);

  useEffect(
    // Leaving a conversation stops the typing its visitor sees.
    () => () => {
      clearTimeout(typingTimer.current);
      if (sessionId) emitStaffTyping(sessionId, false);
    },
    [sessionId],
  );

  const onReplyChange = (value: string) => {
    setDraft(value === '' ? null : value);
    if (!sessionId) return;
    if (typingTimer.current === undefined) emitStaffTyping(sessionId, true);
    clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(() => {
      typingTimer.current = undefined;
      emitStaffTyping(sessionId, false);
    }, staffTypingIdleMs);
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (!sessionId || !reply.trim()) return;
    clearTimeout(typingTimer.current);
    typingTimer.current = undefined;
    emitStaffTyping(sessionId, false);
    // The setter of the conversation it was sent in, even if another is open by now.
    if (await sendReply(reply)) setDraft(null);
    // The send button was disabled while sending, which drops focus: give it back to the box.
    replyBox.current?.focus();
  };

  const sending = openChat?.sending ?? false;
  return (
    <Dialog.Root open={openChat !== null} onOpenChange={(open) => (open ? undefined : closeSession())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content className="fixed top-1/2 left-1/2 z-50 flex max-h-[90vh] w-[calc(100vw-2rem)] max-w-2xl -translate-x-1/2 -translate-y-1/2 flex-col rounded-xl bg-white shadow-xl focus:outline-none">
          <div className="flex items-start justify-between gap-3 border-b border-slate-200 px-5 py-4">
            <div className="min-w-0">
              <Dialog.Title className="text-lg font-semibold text-slate-900">
                Chat with {session ? chatSenderLabel(session) : 'a visitor'}
              </Dialog.Title>
              <Dialog.Description className="truncate text-sm text-slate-500">
                <span className="font-mono text-xs">{sessionId}</span>
                {session ? ` · started ${formatDate(session.createdAt)}` : ''}
                {session?.pageUrl ? ` · ${session.pageUrl}` : ''}
              </Dialog.Description>
            </div>
            <Dialog.Close aria-label="Close" className="rounded p-1 text-slate-500 hover:bg-slate-100">
              <X className="size-5" aria-hidden="true" />
            </Dialog.Close>
          </div>
          <ol aria-label="Conversation" aria-live="polite" className="min-h-48 flex-1 space-y-3 overflow-y-auto px-5 py-4">
            {openChat?.loading && messageCount === 0 ? <li className="text-center text-sm text-slate-500">Loading messages...</li> : null}
            {openChat?.messages.map((message) => <MessageBubble key={message.id} message={message} />)}
            {visitorTyping ? (
              <li className="text-sm text-slate-500 italic" data-testid="visitor-typing">
                Visitor is typing...
              </li>
            ) : null}
            <li ref={listEnd} aria-hidden="true" />
          </ol>
          <form onSubmit={(event) => void submit(event)} className="flex items-end gap-2 border-t border-slate-200 px-5 py-4">
            <label className="sr-only" htmlFor="admin-reply">
              Reply
            </label>
            <textarea
              id="admin-reply"
              ref={replyBox}
              rows={chatLimits.adminReplyRows}
              value={reply}
              maxLength={chatLimits.messageMaxLength}
              onChange={(event) => onReplyChange(event.target.value)}
              onKeyDown={(event) => {
                // Enter sends, Shift+Enter starts a new line, as in the visitor widget.
                if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  void submit();
                }
              }}
              placeholder="Type your reply..."
              className="flex-1 resize-none rounded-md border border-slate-300 px-3 py-2 text-sm focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none"
            />
            <button
              type="submit"
              disabled={!reply.trim() || sending}
              className="inline-flex items-center gap-1.5 rounded-md bg-brand px-4 py-2 text-sm font-semibold text-white hover:bg-brand-dark disabled:cursor-not-allowed disabled:opacity-50"
            >
              <Send className="size-4" aria-hidden="true" />
              {sending ? 'Sending...' : 'Send'}
            </button>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
