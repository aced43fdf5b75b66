import { z } from 'zod';
import { chatSessionStatusSchema, contactLeadSchema } from './chat';
import { emailField, isoDate } from './common';

/** `GET /api/contacts/timeline?email=` (staff): one contact's leads and conversations together. */
export const contactTimelineQuerySchema = z.object({ email: emailField });

/** How many items a timeline shows; `more` says there were older ones. */
export const contactTimelineLimit = 50;

export const contactTimelineItem = z.discriminatedUnion('type', [
  contactLeadSchema.omit({ createdAt: true }).extend({
    type: z.literal('lead'),
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
