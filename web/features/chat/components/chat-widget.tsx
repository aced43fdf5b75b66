import { Clock, History, MessageCircle, Send, X } from 'lucide-react';
import { type FormEvent, Fragment, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { brand, chatLimits, timings } from '../../../../api/contract/brand';
import { LinkedText } from '../../../components/ui/linked-text';
import { ChatController } from '../controller';
import type { ChatEntry } from '../messages';
import { availabilityOf, availabilityText, LeaveMessageForm, LeftMessageNote, offersLeaveMessage, useFocusAfterLeaveMessage, useHoursClock } from './away';
import { RatingPrompt } from './rating-prompt';
import { type ChatTransport, socketTransport } from '../transport';
import { TranscriptAction } from './transcript-action';
import { ConversationClosed } from './conversation-closed';
import { PastConversations } from './past-conversations';

export const welcomeText = `Hi! I'm here to help you learn more about ${brand.product}. How can I assist you today?`;

/** Under a message that waits for the connection: it goes on its own, in order, once the connection is back. */
export const pendingText = 'Sends when you’re back online';

const timeFormat = new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit' });

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/** Who wrote a staff reply, as the visitor sees it: "Dana, Lotwise". */
export function staffSignature(staffName: string): string {
  return `${staffName}, ${brand.product}`;
}

function Bubble({ entry, onRetry }: { entry: Pick<ChatEntry, 'key' | 'text' | 'fromUser' | 'staffName' | 'createdAt' | 'status' | 'error'>; onRetry?: () => void }) {
  const time = timeFormat.format(new Date(entry.createdAt));
  const signature = !entry.fromUser && entry.staffName ? staffSignature(entry.staffName) : undefined;
  return (
    <li className={`flex flex-col ${entry.fromUser ? 'items-end' : 'items-start'}`}>
      <span className="sr-only">{entry.fromUser ? 'You' : (signature ?? 'Support')} said:</span>
      {signature ? (
        <span aria-hidden="true" className="mb-0.5 text-xs font-medium text-slate-600">
          {signature}
        </span>
      ) : null}
      <p
        className={`max-w-[85%] whitespace-pre-wrap break-words rounded-2xl px-3 py-2 text-sm ${
          entry.fromUser ? 'rounded-br-sm bg-brand text-white' : 'rounded-bl-sm bg-slate-100 text-slate-900'
        } ${entry.status === 'sending' || entry.status === 'pending' ? 'opacity-70' : ''}`}
      >
        <LinkedText text={entry.text} />
      </p>
      {entry.status === 'failed' ? (
        <span className="mt-1 flex items-center gap-2 text-xs text-red-700" role="alert">
          {entry.error ?? 'Not sent'}
          <button type="button" className="font-semibold underline" onClick={onRetry}>
            Retry
          </button>
        </span>
      ) : entry.status === 'pending' ? (
        <span className="mt-1 flex max-w-[85%] flex-wrap items-center justify-end gap-x-2 text-right text-xs text-amber-800">
          <span className="inline-flex items-center gap-1">
            <Clock aria-hidden="true" className="size-3 shrink-0" />
            {pendingText}
          </span>
          <button type="button" className="font-semibold underline" onClick={onRetry}>
            Retry
          </button>
        </span>
      ) : (
        <span className="mt-0.5 text-xs text-slate-500">{entry.status === 'sending' ? 'Sending…' : time}</span>
      )}
    </li>
  );
}

function ChatPanel({ controller }: { controller: ChatController }) {
  const useChat = controller.store;
  const { entries, loading, showWelcome, staffOnline, staffTyping, email, emailError, draft, leftMessage, askEmail, notice, view } = useChat();
  const setDraft = (text: string) => controller.setDraft(text);
  const now = useHoursClock();
  const availability = availabilityOf(staffOnline, now);
  // Only before a conversation exists: once one does, it shows as usual and the visitor keeps writing.
  const showLeaveMessage = view === 'chat' && offersLeaveMessage(staffOnline, availability) && !loading && entries.length === 0;
  const showChat = view === 'chat' && !showLeaveMessage;
  const panelRef = useRef<HTMLDivElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  useFocusAfterLeaveMessage(showLeaveMessage, inputRef);
  const titleId = useId();
  const emailId = useId();
  const [welcomeAt] = useState(() => new Date().toISOString());

  // The 0.2 s opening animation, skipped for people who asked for less motion.
  useEffect(() => {
    const panel = panelRef.current;
    if (panel && typeof panel.animate === 'function' && !prefersReducedMotion()) {
      panel.animate(
        [
          { opacity: 0, transform: 'translateY(12px) scale(0.98)' },
          { opacity: 1, transform: 'none' },
        ],
        { duration: timings.chatPanelAnimationMs, easing: 'ease-out' },
      );
    }
    inputRef.current?.focus();
  }, []);

  // Smooth scroll to the newest message after each change.
  useEffect(() => {
    const list = listRef.current;
    if (list && typeof list.scrollTo === 'function') list.scrollTo({ top: list.scrollHeight, behavior: prefersReducedMotion() ? 'auto' : 'smooth' });
  }, [entries, loading, staffTyping]);

  const submit = (event?: FormEvent) => {
    event?.preventDefault();
    if (controller.sendMessage(draft)) setDraft('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) submit(event);
  };

  return (
    <div
      ref={panelRef}
      role="dialog"
      aria-labelledby={titleId}
      onKeyDown={(event) => event.key === 'Escape' && controller.closePanel()}
      className="fixed inset-x-2 bottom-2 z-50 flex h-[min(560px,calc(100dvh-1rem))] flex-col overflow-hidden rounded-2xl bg-white shadow-2xl ring-1 ring-black/10 sm:inset-x-auto sm:right-6 sm:bottom-24 sm:w-[370px]"
    >
      <header className="flex items-center justify-between bg-[#dc2626] px-4 py-3 text-white">
        <div>
          <h2 id={titleId} className="text-base font-semibold">
            Chat With Us
          </h2>
          <p className="flex items-center gap-1.5 text-xs text-white/90">
            <span aria-hidden="true" className={`inline-block size-2 shrink-0 rounded-full ${availability.kind === 'online' ? 'bg-green-300' : 'bg-white/50'}`} />
            {availabilityText(availability, now)}
          </p>
        </div>
        <div className="flex items-center gap-1">
          <button
            type="button"
            onClick={() => (view === 'conversations' ? controller.showChat() : controller.showConversations())}
            aria-label="Your conversations"
            aria-pressed={view === 'conversations'}
            className="rounded-full p-1.5 hover:bg-white/15 aria-pressed:bg-white/20"
          >
            <History aria-hidden="true" className="size-5" />
          </button>
          <button type="button" onClick={() => controller.closePanel()} aria-label="Close chat" className="rounded-full p-1.5 hover:bg-white/15">
            <X aria-hidden="true" className="size-5" />
          </button>
        </div>
      </header>

      {view === 'conversations' && <PastConversations controller={controller} />}
      {showLeaveMessage && <LeaveMessageForm controller={controller} availability={availability} />}
      <ol ref={listRef} hidden={!showChat} role="log" aria-live="polite" aria-label="Chat messages" className="flex-1 space-y-3 overflow-y-auto px-4 py-3">
        {notice && (
          <li role="alert" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {notice}
          </li>
        )}
        {loading ? (
          <li className="text-center text-sm text-slate-500">Loading messages...</li>
        ) : (
          <>
            {showWelcome && !leftMessage && (
              <Bubble entry={{ key: 'welcome', text: welcomeText, fromUser: false, createdAt: welcomeAt, status: 'sent' }} />
            )}
            {entries.map((entry) => (
              <Fragment key={entry.key}>
                <Bubble entry={entry} onRetry={() => controller.retryMessage(entry.key)} />
                {leftMessage?.key === entry.key && entry.status === 'sent' && <LeftMessageNote left={leftMessage} now={now} />}
              </Fragment>
            ))}
            <RatingPrompt controller={controller} />
          </>
        )}
        {staffTyping && (
          <li className="text-xs italic text-slate-500" aria-live="off">
            Support is typing…
          </li>
        )}
      </ol>

      {showChat && <TranscriptAction controller={controller} />}
      {view === 'chat' && <ConversationClosed controller={controller} />}
      {/* noValidate: an invalid optional email is flagged below and never stops the message. */}
      <form noValidate onSubmit={submit} hidden={!showChat} className="border-t border-slate-200 p-3">
        {((staffOnline === false && !leftMessage) || askEmail) && (
          <div className="mb-2">
            <label htmlFor={emailId} className="mb-1 block text-xs text-slate-600">
              Your email (optional), so we can reply later
            </label>
            <input
              id={emailId}
              type="email"
              autoComplete="email"
              value={email}
              maxLength={254}
              onChange={(event) => controller.setEmail(event.target.value)}
              onBlur={() => controller.checkEmail()}
              placeholder="you@dealership.com"
              aria-invalid={emailError ? true : undefined}
              aria-describedby={emailError ? `${emailId}-error` : undefined}
              className={`w-full rounded-lg border px-3 py-2 text-base ${emailError ? 'border-red-600' : 'border-slate-300'}`}
            />
            {emailError && (
              <p id={`${emailId}-error`} className="mt-1 text-xs text-red-700">
                {emailError}. Your messages still go, without it.
              </p>
            )}
          </div>
        )}
        <div className="flex items-center gap-2">
          <input
            ref={inputRef}
            type="text"
            value={draft}
            maxLength={chatLimits.messageMaxLength}
            onChange={(event) => {
              setDraft(event.target.value);
              if (event.target.value) controller.visitorTyping();
            }}
            onKeyDown={onKeyDown}
            placeholder="Type your message..."
            aria-label="Message"
            className="min-w-0 flex-1 rounded-full border border-slate-300 px-4 py-2 text-base"
          />
          <button type="submit" aria-label="Send message" className="grid size-10 shrink-0 place-items-center rounded-full bg-brand text-white hover:bg-brand-dark">
            <Send aria-hidden="true" className="size-4" />
          </button>
        </div>
      </form>
    </div>
  );
}

/**
 * One controller per mount, made in the effect so it is disposed exactly once (React's development
 * double mount gets two, each cleaned up); null until the effect has run.
 */
function useChatController(transport: ChatTransport | undefined): ChatController | null {
  const [controller, setController] = useState<ChatController | null>(null);
  useEffect(() => {
    const created = new ChatController(transport ?? socketTransport());
    created.start();
    setController(created);
    return () => created.dispose();
  }, [transport]);
  return controller;
}

export interface ChatWidgetProps {
  /** The realtime side; the browser's Socket.IO client when left out. */
  transport?: ChatTransport;
  /** Counts "open the panel" requests (openChat()); each rise opens it. */
  openRequests?: number;
  /** The router's path: each new one is a page of the visit. */
  pathname?: string;
}

/** The visitor chat: the round button bottom right and its panel. */
export function ChatWidget({ transport, openRequests = 0, pathname }: ChatWidgetProps) {
  const controller = useChatController(transport);
  // Requests made before this mount were for an earlier widget (say, before a hidden route).
  const openedFor = useRef(openRequests);

  useEffect(() => {
    if (!controller || openRequests <= openedFor.current) return;
    openedFor.current = openRequests;
    controller.openPanel();
  }, [controller, openRequests]);

  // The path is the trigger; the controller reads the address itself, as it does for pageUrl.
  useEffect(() => controller?.pageShown(), [controller, pathname]);

  return controller && <ChatButton controller={controller} />;
}

function ChatButton({ controller }: { controller: ChatController }) {
  const useChat = controller.store;
  const open = useChat((state) => state.open);
  const unread = useChat((state) => state.unread);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);

  // Closing hands focus back to the button, for keyboard users.
  useEffect(() => {
    if (wasOpen.current && !open) buttonRef.current?.focus();
    wasOpen.current = open;
  }, [open]);

  const label = unread > 0 ? `Open chat, ${unread} unread ${unread === 1 ? 'message' : 'messages'}` : 'Open chat';
  return (
    <>
      {open && <ChatPanel controller={controller} />}
      <button
        ref={buttonRef}
        type="button"
        onClick={() => (open ? controller.closePanel() : controller.openPanel())}
        aria-label={open ? 'Minimize chat' : label}
        aria-expanded={open}
        className={`fixed right-4 bottom-4 z-50 size-14 place-items-center rounded-full bg-[#333399] text-white shadow-lg hover:bg-brand-dark sm:right-6 sm:bottom-6 ${open ? 'hidden sm:grid' : 'grid'}`}
      >
        {open ? <X aria-hidden="true" className="size-6" /> : <MessageCircle aria-hidden="true" className="size-6" />}
        {!open && unread > 0 && (
          <span aria-hidden="true" className="absolute -top-1 -right-1 grid min-w-5 place-items-center rounded-full bg-[#dc2626] px-1 text-xs font-bold text-white ring-2 ring-white">
            {unread}
          </span>
        )}
      </button>
    </>
  );
}
