import { leadKinds } from '../../../api/contract/leads';
import { adminApi } from './api/admin-api';
import { createVisitorAlerts } from './lib/alerts';
import { coalesceRequests } from './lib/coalesce';
import { createFrameBatcher } from './lib/frame-batcher';
import { type ChatUpdate, type InboxUpdate, isLeadUpdate, type LeadUpdate, type LiveEvent } from './live-events';
import { useChatSessions } from './stores/chat-sessions-store';
import { addCountsChanges, useCounts } from './stores/counts-store';
import { useLeads } from './stores/leads-store';

export interface InboxController {
  /** A push of the staff socket. */
  push(event: LiveEvent): void;
  /** After a socket (re)connect: what arrived or changed while nothing was pushed to this screen. */
  catchUp(): Promise<void>;
  dispose(): void;
}

/**
 * The live inbox of one dashboard mount. Pushes patch the rows the stores hold with what they carry;
 * what a push cannot tell (a session's unread and message counts, whether a row matches the search)
 * is asked of the server by reading the list's first page again, coalesced so that a flood of pushes
 * costs a few requests, and the answers are applied in the same batches as the pushes: a burst
 * updates each store once per animation frame. Unseen visitors' messages beep and notify.
 */
export function createInboxController(onOpenSession: (sessionId: string) => void): InboxController {
  let disposed = false;
  // A notification names the visitor as they gave it: the name, else the email. The message itself
  // says so where the list holds no row for its session (a search hides it, a deeper page holds it).
  const alerts = createVisitorAlerts((message) => {
    const session = useChatSessions.getState().chatSessions.find((known) => known.id === message.sessionId);
    return session?.senderName || session?.senderEmail || message.senderName || message.senderEmail || null;
  }, onOpenSession);
  const updates = createFrameBatcher<InboxUpdate>(applyBatch);

  function deliver(update: InboxUpdate): void {
    if (!disposed) updates.push(update);
  }

  const chatReread = coalesceRequests(async () => {
    const { chatQuery: query, chatStatus: status } = useChatSessions.getState();
    const rows = await adminApi.chatSessions({ q: query, status });
    deliver({ event: 'chat-sessions:fresh', payload: { query, status, rows } });
  });
  const leadRereads = new Map(
    leadKinds.map((kind) => [
      kind,
      coalesceRequests(async () => {
        const { query, status } = useLeads.getState().leads[kind];
        const rows = await adminApi.leads(kind, { q: query, status });
        deliver({ event: 'leads:fresh', payload: { kind, query, status, rows } });
      }),
    ]),
  );

  function applyBatch(batch: InboxUpdate[]): void {
    const leadUpdates: LeadUpdate[] = [];
    const chatUpdates: ChatUpdate[] = [];
    for (const update of batch) {
      if (isLeadUpdate(update)) leadUpdates.push(update);
      else chatUpdates.push(update);
    }
    const leads = leadUpdates.length > 0 ? useLeads.getState().applyLive(leadUpdates) : undefined;
    const chats = chatUpdates.length > 0 ? useChatSessions.getState().applyLive(chatUpdates) : undefined;
    useCounts.getState().adjust(addCountsChanges(leads?.counts ?? {}, chats?.counts ?? {}));
    if (leads?.recount || chats?.recount) useCounts.getState().recheck();
    for (const kind of leads?.reread ?? []) leadRereads.get(kind)?.ask();
    if (chats?.reread) chatReread.ask();
    for (const sessionId of chats?.markRead ?? []) void useChatSessions.getState().markRead(sessionId);
    if (chats) alerts.announce(chats.unseen);
  }

  return {
    push: deliver,

    async catchUp() {
      try {
        // The chat list, the open conversation and the cards are read again; the lead lists' deeper pages stay where they are.
        await Promise.all([
          useCounts.getState().load(),
          useChatSessions.getState().load(),
          useChatSessions.getState().refreshOpenSession(),
          ...leadKinds.map((kind) => useLeads.getState().refresh(kind)),
        ]);
      } catch {
        // The next event or reload brings them; a 401 has already sent staff back to the sign-in card.
      }
    },

    dispose() {
      disposed = true;
      updates.dispose();
      alerts.dispose();
      chatReread.dispose();
      for (const reread of leadRereads.values()) reread.dispose();
    },
  };
}
