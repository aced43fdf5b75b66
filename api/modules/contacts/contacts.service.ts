import type { Db } from '../../../db/client';
import { chatSessionStatusSchema } from '../../contract/chat';
import { type ContactTimeline, type ContactTimelineItem, contactTimelineLimit } from '../../contract/contacts';
import { leadsByEmail } from '../leads';
import { listConversationsByEmail } from './contacts.repository';

/** Newest first; at the same moment, leads before conversations, then by id, so the order never wavers. */
function newestFirst(a: ContactTimelineItem, b: ContactTimelineItem): number {
  if (a.at !== b.at) return a.at < b.at ? 1 : -1;
  if (a.type !== b.type) return a.type === 'lead' ? -1 : 1;
  return String(b.id).localeCompare(String(a.id));
}

/**
 * One contact, one timeline (DESIGN.md 11): the leads of all four forms and the conversations with
 * this email in any case, newest first. A lead's place is when it was sent, a conversation's its
 * last message. Each side reads one more than is shown, so `more` is known without counting.
 */
export async function contactTimeline(db: Db, email: string): Promise<ContactTimeline> {
  const [leads, conversations] = await Promise.all([
    leadsByEmail(db, email, contactTimelineLimit + 1),
    listConversationsByEmail(db, email, contactTimelineLimit + 1),
  ]);
  const items: ContactTimelineItem[] = [
    ...leads.map(({ createdAt, ...lead }): ContactTimelineItem => ({ type: 'lead', ...lead, at: createdAt })),
    ...conversations.map((row): ContactTimelineItem => ({
      type: 'conversation',
      id: row.id,
      email: row.email,
      status: chatSessionStatusSchema.catch('open').parse(row.status),
      startedAt: row.startedAt,
      at: row.lastActivity,
      lastMessage: row.lastMessage ?? '',
      messageCount: Number(row.messageCount),
    })),
  ].sort(newestFirst);
  return { items: items.slice(0, contactTimelineLimit), more: items.length > contactTimelineLimit };
}
