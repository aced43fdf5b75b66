import type { ChatMessage } from '../../../api/contract/chat';

/** One bubble of the panel: a stored message, or the visitor's own on its way (matched later by clientId). */
export interface ChatEntry {
  key: string;
  id?: number;
  /** The message's place in its session (the server's order); absent until stored. */
  seq?: number;
  clientId?: string;
  text: string;
  fromUser: boolean;
  /** A staff reply's author, by the display name they chose ("Dana"). */
  staffName?: string;
  createdAt: string;
  /** `pending`: not sent yet for want of a connection, and sent on its own once it is back; `failed`: refused, sent again by Retry. */
  status: 'sending' | 'pending' | 'sent' | 'failed';
  error?: string;
}

function storedEntry(message: ChatMessage): ChatEntry {
  return {
    key: message.clientId ?? `id-${message.id}`,
    id: message.id,
    seq: message.seq,
    clientId: message.clientId ?? undefined,
    text: message.message,
    fromUser: message.isFromUser,
    ...(message.staffName ? { staffName: message.staffName } : {}),
    createdAt: message.createdAt,
    status: 'sent',
  };
}

/**
 * Adds stored messages to the list, never twice: a known id is skipped, and the optimistic copy of the
 * visitor's own message is replaced by the stored row carrying its clientId. Stored rows go in seq
 * order, the session's own (ids can commit out of order across server processes); messages not
 * stored yet stay after them. The list comes back unchanged (the same array)
 * when nothing was new.
 */
export function mergeMessages(entries: ChatEntry[], incoming: ChatMessage[]): { entries: ChatEntry[]; added: ChatMessage[] } {
  let next = entries;
  const added: ChatMessage[] = [];
  for (const message of incoming) {
    if (next.some((entry) => entry.id === message.id)) continue;
    const optimistic = message.clientId ? next.findIndex((entry) => entry.id === undefined && entry.clientId === message.clientId) : -1;
    if (optimistic >= 0) {
      next = next.with(optimistic, { ...storedEntry(message), key: next[optimistic]!.key });
    } else {
      next = [...next, storedEntry(message)];
      added.push(message);
    }
  }
  if (next === entries) return { entries, added };
  const order = (entry: ChatEntry) => entry.seq ?? Number.MAX_SAFE_INTEGER;
  return { entries: [...next].sort((a, b) => order(a) - order(b)), added };
}
