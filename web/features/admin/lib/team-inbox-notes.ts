import type { StaffChatMessage } from '../../../../api/contract/chat';
import type { ChatNote } from '../../../../api/contract/team-inbox-notes';

/** A conversation's private note draft, kept apart from its reply draft (lib/drafts.ts). */
export function chatNoteDraftSubject(sessionId: string): string {
  return `chat-note:${sessionId}`;
}

export type ConversationEntry = { message: StaffChatMessage; note?: undefined } | { note: ChatNote; message?: undefined };

/** Messages in their order, each note placed after the messages written before it. */
export function withNotes(messages: readonly StaffChatMessage[], notes: readonly ChatNote[]): ConversationEntry[] {
  if (notes.length === 0) return messages.map((message) => ({ message }));
  const entries: ConversationEntry[] = [];
  let next = 0;
  for (const message of messages) {
    while (next < notes.length && notes[next]!.createdAt < message.createdAt) entries.push({ note: notes[next++]! });
    entries.push({ message });
  }
  while (next < notes.length) entries.push({ note: notes[next++]! });
  return entries;
}
