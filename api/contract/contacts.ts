import { z } from 'zod';
import { chatSessionStatusSchema } from './chat';
import { emailField, isoDate, rowId } from './common';
import { leadKindSchema, leadStatusSchema } from './leads';

/** `GET /api/contacts/timeline?email=` (staff): one contact's leads and conversations together. */
export const contactTimelineQuerySchema = z.object({ email: emailField });

/** How many items a timeline shows; `more` says there were older ones. */
export const contactTimelineLimit = 50;

export const contactTimelineItem = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('lead'),
    kind: leadKindSchema,
    id: rowId,
    name: z.string(),
    email: z.string(),
    /** A contact's subject, a ticket's subject, a demo's company, a get-started's dealership. */
    summary: z.string(),
    status: leadStatusSchema,
    /** When it was sent: its place in the timeline. */
    at: isoDate,
  }),
  z.object({
    type: z.literal('conversation'),
    id: z.string(),
    email: z.string(),
    status: chatSessionStatusSchema,
    startedAt: isoDate,
    /** Its last message: its place in the timeline. */
    at: isoDate,
    lastMessage: z.string(),
    messageCount: z.number().int(),
  }),
]);
export type ContactTimelineItem = z.infer<typeof contactTimelineItem>;

export const contactTimeline = z.object({
  /** Every lead and conversation with this email in any case, newest first. */
  items: z.array(contactTimelineItem),
  more: z.boolean(),
});
export type ContactTimeline = z.infer<typeof contactTimeline>;
