import { ArrowLeft, Lock, Send, X } from 'lucide-react';
import { type FormEvent, Fragment, useEffect, useId, useRef, useState } from 'react';
import { chatLimits } from '../../../../api/contract/brand';
import { chatSenderLabel, type StaffChatMessage } from '../../../../api/contract/chat';
import { LinkedText } from '../../../components/ui/linked-text';
import { emitStaffTyping } from '../api/admin-socket';
import { chatDraftSubject } from '../lib/drafts';
import { useChatMessages, useChatSession } from '../api/queries';
import { useMarkReadIfUnread, useSendReply } from '../api/chat-writes';
import { ChatAssignee } from './assignee-picker';
import { useChatUi } from '../stores/chat-ui-store';
import { formatDate, formatTime } from '../lib/format';
import { ConversationRating } from './rating-badge';
import { useDraft } from '../use-draft';
import { lastSeenReplyId, SeenMark, SendTranscriptButton } from './continuity-marks';
import { replyTypingTimings } from '../../../../api/contract/team-inbox-notes';
import { useAddNote, useCannedReplies, useChatNotes } from '../api/team-inbox-queries';
import { emitReplyTyping } from '../collision';
import { chatNoteDraftSubject, withNotes } from '../lib/team-inbox-notes';
import { useCannedPicker } from './canned-picker';
import { CollisionNotice, NoteBubble } from './collision-notice';

/** Staff stop showing as typing to the visitor this long after their last keystroke. */
const staffTypingIdleMs = 2000;

/** A message with who wrote it: the visitor's name, or the staff member's (Support for replies from before authors were kept). */
function MessageBubble({ message }: { message: StaffChatMessage }) {
  const fromUser = message.isFromUser;
  return (
    <li className={`flex ${fromUser ? 'justify-start' : 'justify-end'}`} data-from={fromUser ? 'user' : 'support'}>
      <div className={`max-w-[80%] rounded-lg px-3 py-2 ${fromUser ? 'bg-slate-100 text-slate-900' : 'bg-brand text-white'}`}>
        <p className={`text-xs font-semibold ${fromUser ? 'text-slate-600' : 'text-white/80'}`}>
          {fromUser ? message.senderName || 'Customer' : (message.authorName ?? 'Support')}
          <span className="ml-2 font-normal">{formatTime(message.createdAt)}</span>
        </p>
        <p className="mt-0.5 text-sm break-words whitespace-pre-wrap">
          <LinkedText text={message.message} />
        </p>
      </div>
    </li>
  );
}

/**
 * What View & Reply opens, in the chat tab's pane (`/admin/chats/:sessionId`): the conversation,
 * live, and a 3-row reply box whose unsent text is kept per conversation. The dashboard opens the
 * session of the address in the store; `onClose` goes back to the list (Back on a phone).
 */
export function ConversationPane({ onClose }: { onClose: () => void }) {
  const openSessionId = useChatUi((state) => state.openSessionId);
  const session = useChatSession(openSessionId);
  const visitorTyping = useChatUi((state) => (state.openSessionId ? Boolean(state.visitorTyping[state.openSessionId]) : false));
  const { send: sendReply, sending } = useSendReply(openSessionId);
  const markReadIfUnread = useMarkReadIfUnread();
  const { messages, loading } = useChatMessages(openSessionId);
  const openChat = openSessionId === null ? null : { sessionId: openSessionId, messages, loading };
  const sessionId = openChat?.sessionId;
  const [draft, setDraft] = useDraft(sessionId ? chatDraftSubject(sessionId) : null);
  const reply = draft ?? '';
  const listEnd = useRef<HTMLLIElement>(null);
  const replyBox = useRef<HTMLTextAreaElement>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const messageCount = openChat?.messages.length ?? 0;
  const titleId = useId();
  const seenReplyId = lastSeenReplyId(openChat?.messages ?? [], session?.visitorSeenSeq);
  const paneRef = useRef<HTMLElement>(null);
  // Reply (to the visitor) or Note (staff only): each with its own draft; a newly opened conversation starts on Reply.
  const [composer, setComposer] = useState<{ sessionId: string | undefined; mode: 'reply' | 'note' }>({ sessionId: undefined, mode: 'reply' });
  const mode = composer.sessionId === sessionId ? composer.mode : 'reply';
  const [noteDraft, setNoteDraft] = useDraft(sessionId ? chatNoteDraftSubject(sessionId) : null);
  const noteText = noteDraft ?? '';
  const notes = useChatNotes(openSessionId);
  const { add: addNote, adding } = useAddNote(openSessionId);
  const replyTypingAt = useRef(0);
  const cannedReplies = useCannedReplies(mode === 'reply');
  const picker = useCannedPicker({
    value: reply,
    onChange: (value) => setDraft(value === '' ? null : value),
    replies: cannedReplies.data ?? [],
    visitor: { name: session?.senderName ?? null, email: session?.senderEmail ?? null },
    textareaRef: replyBox,
    enabled: mode === 'reply',
  });

  // Opening a conversation moves keyboard and screen reader users to it, as opening a lead does.
  useEffect(() => paneRef.current?.focus(), [sessionId]);

  useEffect(() => {
    listEnd.current?.scrollIntoView?.({ block: 'end' });
  }, [messageCount, visitorTyping]);

  useEffect(() => {
    // Messages that arrived while the tab was hidden count as read once the staff member is back.
    const onVisible = () => {
      if (document.visibilityState === 'visible' && sessionId) markReadIfUnread(sessionId);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => document.removeEventListener('visibilitychange', onVisible);
  }, [markReadIfUnread, sessionId]);

  useEffect(
    // Leaving a conversation stops the typing its visitor sees.
    () => () => {
      clearTimeout(typingTimer.current);
      if (sessionId) emitStaffTyping(sessionId, false);
      if (sessionId && replyTypingAt.current > 0) emitReplyTyping(sessionId, false);
      replyTypingAt.current = 0;
    },
    [sessionId],
  );

  const onReplyChange = (value: string) => {
    if (mode === 'note') {
      // A note is nobody's business but the staff's: the visitor sees no typing for it.
      setNoteDraft(value === '' ? null : value);
      return;
    }
    setDraft(value === '' ? null : value);
    if (!sessionId) return;
    if (typingTimer.current === undefined) emitStaffTyping(sessionId, true);
    // The other staff see "is typing a reply" for a few seconds after each of these.
    if (Date.now() - replyTypingAt.current >= replyTypingTimings.announceEveryMs) {
      replyTypingAt.current = Date.now();
      emitReplyTyping(sessionId, true);
    }
    clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(() => {
      typingTimer.current = undefined;
      emitStaffTyping(sessionId, false);
      replyTypingAt.current = 0;
      emitReplyTyping(sessionId, false);
    }, staffTypingIdleMs);
  };

  const submit = async (event?: FormEvent) => {
    event?.preventDefault();
    if (mode === 'note') {
      if (sessionId && noteText.trim() && (await addNote(noteText))) setNoteDraft(null);
      replyBox.current?.focus();
      return;
    }
    if (!sessionId || !reply.trim()) return;
    clearTimeout(typingTimer.current);
    typingTimer.current = undefined;
    emitStaffTyping(sessionId, false);
    replyTypingAt.current = 0;
    emitReplyTyping(sessionId, false);
    // The setter of the conversation it was sent in, even if another is open by now.
    if (await sendReply(reply)) setDraft(null);
    // The send button was disabled while sending, which drops focus: give it back to the box.
    replyBox.current?.focus();
  };

  return (
    <section
      ref={paneRef}
      tabIndex={-1}
      aria-labelledby={titleId}
      className="flex h-[min(75dvh,44rem)] min-h-[24rem] min-w-0 flex-col lg:h-[max(28rem,calc(100dvh-18rem))] rounded-lg border border-slate-200 bg-white focus:outline-none"
    >
      <div className="flex items-start gap-2 border-b border-slate-200 px-4 py-3">
        {/* On a phone the conversation takes the screen: Back returns to the list. */}
        <button
          type="button"
          onClick={onClose}
          className="-ml-1 inline-flex shrink-0 items-center gap-1 rounded p-1 text-sm font-medium text-brand hover:bg-slate-100 lg:hidden"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          Back
        </button>
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="truncate text-base font-semibold text-slate-900 sm:text-lg">
            Chat with {session ? chatSenderLabel(session) : 'a visitor'}
          </h2>
          <p className="truncate text-sm text-slate-500">
            <span className="font-mono text-xs">{sessionId}</span>
            {session ? ` · started ${formatDate(session.createdAt)}` : ''}
          </p>
        </div>
        {sessionId ? <SendTranscriptButton sessionId={sessionId} email={session?.senderEmail ?? null} /> : null}
        <button type="button" onClick={onClose} aria-label="Close" className="shrink-0 rounded p-1 text-slate-500 hover:bg-slate-100 max-lg:hidden">
          <X className="size-5" aria-hidden="true" />
        </button>
      </div>
      <CollisionNotice sessionId={openSessionId} />
      {sessionId ? <ChatAssignee sessionId={sessionId} session={session} /> : null}
      <ConversationRating rating={session?.rating} />
      <ol aria-label="Conversation" aria-live="polite" className="min-h-0 flex-1 space-y-3 overflow-y-auto px-4 py-4">
        {openChat?.loading && messageCount === 0 ? <li className="text-center text-sm text-slate-500">Loading messages...</li> : null}
        {openChat && !openChat.loading && messageCount === 0 ? <li className="text-center text-sm text-slate-500">No messages in this conversation.</li> : null}
        {withNotes(openChat?.messages ?? [], notes).map((entry) =>
          entry.note ? (
            <NoteBubble key={`note-${entry.note.id}`} note={entry.note} />
          ) : (
            <Fragment key={entry.message.id}>
              <MessageBubble message={entry.message} />
              {entry.message.id === seenReplyId ? <SeenMark /> : null}
            </Fragment>
          ),
        )}
        {visitorTyping ? (
          <li className="text-sm text-slate-500 italic" data-testid="visitor-typing">
            Visitor is typing...
          </li>
        ) : null}
        <li ref={listEnd} aria-hidden="true" />
      </ol>
      <form
        onSubmit={(event) => void submit(event)}
        className={`relative flex flex-col gap-2 border-t px-4 py-3 ${mode === 'note' ? 'border-amber-300 bg-amber-50' : 'border-slate-200'}`}
      >
        {picker.picker}
        <div role="group" aria-label="Compose as" className="flex gap-1 text-sm">
          {(['reply', 'note'] as const).map((each) => (
            <button
              key={each}
              type="button"
              aria-pressed={mode === each}
              onClick={() => {
                setComposer({ sessionId, mode: each });
                replyBox.current?.focus();
              }}
              className={`inline-flex items-center gap-1 rounded-md px-2.5 py-1 font-medium ${
                mode === each ? (each === 'note' ? 'bg-amber-200 text-amber-950' : 'bg-brand/10 text-brand') : 'text-slate-600 hover:bg-slate-100'
              }`}
            >
              {each === 'note' ? <Lock className="size-3.5" aria-hidden="true" /> : null}
              {each === 'note' ? 'Note' : 'Reply'}
            </button>
          ))}
          {mode === 'note' ? <span className="self-center text-xs text-amber-900">Only staff see notes</span> : null}
        </div>
        <div className="flex items-end gap-2">
          <label className="sr-only" htmlFor="admin-reply">
            {mode === 'note' ? 'Private note' : 'Reply'}
          </label>
          <textarea
            id="admin-reply"
            ref={replyBox}
            rows={chatLimits.adminReplyRows}
            value={mode === 'note' ? noteText : reply}
            maxLength={chatLimits.messageMaxLength}
            {...picker.inputProps}
            onChange={(event) => {
              onReplyChange(event.target.value);
              picker.track(event.target);
            }}
            onClick={(event) => picker.track(event.currentTarget)}
            onKeyUp={(event) => {
              if (event.key.startsWith('Arrow') || event.key === 'Home' || event.key === 'End') picker.track(event.currentTarget);
            }}
            onKeyDown={(event) => {
              if (picker.onKeyDown(event)) return;
              // Enter sends, Shift+Enter starts a new line, as in the visitor widget.
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                void submit();
              }
            }}
            placeholder={mode === 'note' ? 'Write a private note for the team...' : 'Type your reply... (/ for canned replies)'}
            className="min-w-0 flex-1 resize-none rounded-md border border-slate-300 bg-white px-3 py-2 text-sm focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none"
          />
          {mode === 'note' ? (
            <button
              type="submit"
              disabled={!noteText.trim() || adding}
              className="inline-flex items-center gap-1.5 rounded-md bg-amber-600 px-4 py-2 text-sm font-semibold whitespace-nowrap text-white hover:bg-amber-700 disabled:cursor-not-allowed disabled:opacity-50"
            >
              <Lock className="size-4" aria-hidden="true" />
              {adding ? 'Adding...' : 'Add note'}
            </button>
          ) : (
            <button
              type="submit"
              disabled={!reply.trim() || sending}
              className="inline-flex items-center gap-1.5 rounded-md bg-brand px-4 py-2 text-sm font-semibold text-white hover:bg-brand-dark disabled:cursor-not-allowed disabled:opacity-50"
            >
              <Send className="size-4" aria-hidden="true" />
              {sending ? 'Sending...' : 'Send'}
            </button>
          )}
        </div>
      </form>
    </section>
  );
}
