import { hashKey, notifyManager, type QueryClient } from '@tanstack/react-query';
import { fitsAssignee, useAssigneeFilter } from './stores/assignee-filter-store';
import type { ChatMessage, ChatSessionSummary } from '../../../api/contract/chat';
import type { Lead, LeadStatus } from '../../../api/contract/leads';
import type { StaffServerToClientEvents } from '../../../api/contract/socket';
import {
  adminQueryKeys,
  cachedLists,
  countedAhead,
  countKeys,
  type CountsChange,
  findRow,
  heldChatRow,
  moveCounts,
  type Pages,
  prependRow,
  putChatRow,
  recheckCounts,
  rereadList,
  setPushQueue,
  stopCountsRecheck,
} from './api/live-cache';
import { missedChats } from './api/chat-resync';
import { putChatMessage } from './api/chat-writes';
import { applyLeadUpdate } from './api/lead-writes';
import { createVisitorAlerts } from './lib/alerts';
import { createFrameBatcher } from './lib/frame-batcher';
import { useChatUi } from './stores/chat-ui-store';

type LiveEventName = 'submission:new' | 'lead:updated' | 'chat:message' | 'chat-session:updated' | 'chat:typing';

/** A staff socket push that changes the inbox's data, as it arrived. */
export type LiveEvent = {
  [E in LiveEventName]: { event: E; payload: Parameters<StaffServerToClientEvents[E]>[0] };
}[LiveEventName];

export interface InboxController {
  /** A push of the staff socket. */
  push(event: LiveEvent): void;
  /** After a socket (re)connect: every query is read again (the shown ones now, the others when shown). */
  catchUp(): Promise<void>;
  dispose(): void;
}

/** The start of every chat list's query hash: `["chat-sessions",{...}]`. */
const chatListsHash = hashKey(adminQueryKeys.chatSessions).slice(0, -1);

function isChatList(queryKey: readonly unknown[]): boolean {
  return queryKey[0] === adminQueryKeys.chatSessions[0];
}

/** Sums the changes of one batch, so the cards take them in one update. */
function addCountsChange(sum: CountsChange, change: CountsChange): void {
  for (const [key, delta] of Object.entries(change) as [keyof CountsChange, number][]) sum[key] = (sum[key] ?? 0) + delta;
}

/**
 * The live inbox of one dashboard mount. A push patches the cached queries where it carries the
 * whole truth (a new lead on an unfiltered list, a changed row, a message in its conversation) and
 * invalidates what it cannot know (whether a search or filter now matches, a session's figures,
 * the cards). Pushes are applied once per animation frame, so a burst renders a few times; a list's
 * re-read is never joined by a parallel one (api/live-cache.ts `rereadList`). Unseen visitors'
 * messages beep and notify.
 */
export function createInboxController(queryClient: QueryClient, onOpenSession: (sessionId: string) => void): InboxController {
  let disposed = false;
  // A notification names the visitor as they gave it: the name, else the email.
  const alerts = createVisitorAlerts((message) => {
    const session = heldChatRow(queryClient, message.sessionId);
    return session?.senderName || session?.senderEmail || message.senderName || message.senderEmail || null;
  }, onOpenSession);
  const updates = createFrameBatcher<LiveEvent>((batch) => notifyManager.batch(() => applyBatch(batch)));
  setPushQueue(queryClient, () => updates.drained());
  // A chat list read from the server holds its unread figures for the sessions it includes: those are no longer
  // counted ahead. A session it does not include stays counted; a patch of our own (`manual`) tells nothing new.
  const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
    if (!event.query.queryHash.startsWith(chatListsHash)) return;
    const fresh = event.action.data as Pages<ChatSessionSummary> | undefined;
    const ahead = countedAhead(queryClient);
    if (ahead.size === 0 || !fresh) return;
    for (const page of fresh.pages) for (const row of page) ahead.delete(row.id);
  });

  function applyBatch(batch: LiveEvent[]): void {
    const counts: CountsChange = {};
    const rereads = new Map<string, readonly unknown[]>();
    const reread = (key: readonly unknown[]) => rereads.set(JSON.stringify(key), key);
    let recount = false;
    const unseen: ChatMessage[] = [];
    const typing: Record<string, boolean> = {};
    const { openSessionId, visitorTyping } = useChatUi.getState();

    for (const update of batch) {
      switch (update.event) {
        case 'submission:new': {
          const { kind } = update.payload;
          const { item } = update.payload;
          const lists = cachedLists<Lead, LeadStatus>(queryClient, adminQueryKeys.leads(kind));
          // The same push twice (a reconnect) counts once.
          if (lists.some((list) => findRow(list.data, item.id))) break;
          for (const list of lists) {
            // A new row is the newest: without a search it belongs on top; under one, the server says.
            if (list.filter.status && item.status !== list.filter.status) continue;
            if (!fitsAssignee(item.assigneeId, list.filter.assignee, useAssigneeFilter.getState().me)) continue;
            if (list.filter.q) reread(list.key);
            else queryClient.setQueryData(list.key, prependRow(list.data, item));
          }
          addCountsChange(counts, { [countKeys[kind]]: 1, [`${countKeys[kind]}.${item.status}`]: 1 });
          break;
        }
        case 'lead:updated': {
          const { kind } = update.payload;
          const { item } = update.payload;
          // A list that does not hold it but shows its status may now have it on its first page.
          for (const list of cachedLists<Lead, LeadStatus>(queryClient, adminQueryKeys.leads(kind))) {
            if (list.filter.status === item.status && !findRow(list.data, item.id)) reread(list.key);
          }
          applyLeadUpdate(queryClient, kind, item);
          break;
        }
        case 'chat:message': {
          const message = update.payload;
          if (message.isFromUser && (typing[message.sessionId] ?? visitorTyping[message.sessionId])) typing[message.sessionId] = false;
          const seen = openSessionId === message.sessionId && document.visibilityState === 'visible';
          const result = putChatMessage(queryClient, message, seen);
          if (result.unseen) unseen.push(message);
          addCountsChange(counts, result.counts);
          recount ||= result.recount;
          // The session's figures (unread, message count) and whether a searched list now has it: the server says.
          if (result.reread) reread(adminQueryKeys.chatSessions);
          break;
        }
        case 'chat-session:updated': {
          const result = putChatRow(queryClient, update.payload, 'push');
          addCountsChange(counts, result.counts);
          recount ||= result.recount;
          if (result.reread) reread(adminQueryKeys.chatSessions);
          break;
        }
        case 'chat:typing':
          typing[update.payload.sessionId] = update.payload.typing;
          break;
      }
    }

    if (Object.keys(typing).length > 0) useChatUi.getState().setTyping(typing);
    moveCounts(queryClient, counts);
    if (recount) recheckCounts(queryClient);
    for (const key of rereads.values()) {
      // The chat lists: every cached one (each filter) that the pushes may have changed.
      if (key === adminQueryKeys.chatSessions) {
        for (const list of cachedLists(queryClient, adminQueryKeys.chatSessions)) rereadList(queryClient, list.key);
      } else rereadList(queryClient, key);
    }
    alerts.announce(unseen);
  }

  return {
    push(event) {
      if (!disposed) updates.push(event);
    },

    async catchUp() {
      // The chats by cursor (api/chat-resync.ts), applied as pushes are, before the counts are read again:
      // the server's figures then settle what the rows moved.
      const { openSessionId } = useChatUi.getState();
      let chatsByCursor = true;
      try {
        const { sessions, messages } = await missedChats(queryClient, openSessionId);
        if (disposed) return;
        for (const session of sessions) updates.push({ event: 'chat-session:updated', payload: session });
        for (const message of messages) updates.push({ event: 'chat:message', payload: message });
        await updates.drained();
      } catch {
        // No cursor answer (an older server, an error): the chats are read again like the rest.
        chatsByCursor = false;
      }
      // The rest: shown queries are read now, the others when next shown; a read under way is not doubled.
      // A conversation that is not open is read again when next shown.
      const isOpenConversation = (key: readonly unknown[]) => key[0] === adminQueryKeys.chatMessages('')[0] && key[1] === openSessionId;
      const byCursor = (key: readonly unknown[]) => chatsByCursor && (isChatList(key) || isOpenConversation(key));
      await queryClient.invalidateQueries({ predicate: (query) => !byCursor(query.queryKey) }, { cancelRefetch: false });
    },

    dispose() {
      disposed = true;
      setPushQueue(queryClient, null);
      updates.dispose();
      alerts.dispose();
      unsubscribe();
      stopCountsRecheck(queryClient);
    },
  };
}
