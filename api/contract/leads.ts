import { z } from 'zod';
import { assigneeFields, assigneeQuerySchema } from './assignment';
import { brand } from './brand';
import {
  controlCharacterMessage,
  cursorDateMessage,
  emailField,
  hasRefusedCharacters,
  honeypotField,
  isIsoTimestamp,
  isoDate,
  isRowIdText,
  optionalText,
  phoneField,
  requiredText,
  rowId,
  rowIdMessage,
  rowIdParam,
} from './common';
import { pricingPlanIds, unknownPlanMessage } from './plans';

// ---------- option lists of the forms ----------

export const contactSubjects = [
  { value: 'demo', label: 'Schedule a Demo' },
  { value: 'pricing', label: 'Pricing Information' },
  { value: 'support', label: 'Technical Support' },
  { value: 'partnership', label: 'Partnership Opportunities' },
  { value: 'general', label: 'General Inquiry' },
] as const;

export const supportPriorities = [
  { value: 'low', label: 'Low' },
  { value: 'medium', label: 'Medium' },
  { value: 'high', label: 'High' },
  { value: 'urgent', label: 'Urgent' },
] as const;

export const supportCategories = [
  { value: 'technical', label: 'Technical Issue' },
  { value: 'account', label: 'Account Management' },
  { value: 'billing', label: 'Billing Question' },
  { value: 'feature', label: 'Feature Request' },
  { value: 'training', label: 'Training/Setup' },
  { value: 'other', label: 'Other' },
] as const;

export const inventorySizes = [
  { value: '1-49', label: '1-49 vehicles' },
  { value: '50-99', label: '50-99 vehicles' },
  { value: '100+', label: '100+ vehicles' },
] as const;

export const launchTimelines = [
  { value: 'asap', label: 'As soon as possible' },
  { value: '1-2-weeks', label: 'In 1-2 weeks' },
  { value: '3-4-weeks', label: 'In 3-4 weeks' },
  { value: '1-2-months', label: 'In 1-2 months' },
  { value: '3-months+', label: 'In 3 months or more' },
] as const;

export const primaryGoalOptions = [
  'Increase online leads',
  'Improve website conversion',
  'Automate customer follow-up',
  'Better inventory management',
  'Mobile-friendly website',
  'Search engine optimization',
  'Other:',
] as const;

type Option = { readonly value: string };
function values<T extends readonly Option[]>(options: T) {
  return options.map((option) => option.value) as unknown as [T[number]['value'], ...T[number]['value'][]];
}

// ---------- shared field rules ----------

const nameField = requiredText(2, 'Name must be at least 2 characters', 100, 'Name');
const companyField = requiredText(2, 'Company name must be at least 2 characters', 200, 'Company name');

// ---------- form inputs ----------

export const demoRequestSchema = z.object({
  name: nameField,
  email: emailField,
  company: companyField,
  phone: optionalText(30, 'Phone'),
  message: optionalText(5000, 'Message', { multiline: true }),
  _gotcha: honeypotField,
});
export type DemoRequestInput = z.input<typeof demoRequestSchema>;

export const contactSubmissionSchema = z.object({
  name: nameField,
  email: emailField,
  company: companyField,
  phone: phoneField,
  subject: z.enum(values(contactSubjects), { error: 'Please select a subject' }),
  message: requiredText(10, 'Message must be at least 10 characters', 5000, 'Message', { multiline: true }),
  _gotcha: honeypotField,
});
export type ContactSubmissionInput = z.input<typeof contactSubmissionSchema>;

export const supportTicketSchema = z.object({
  name: nameField,
  email: emailField,
  company: companyField,
  priority: z.enum(values(supportPriorities), { error: 'Please select a priority level' }),
  category: z.enum(values(supportCategories), { error: 'Please select a category' }),
  subject: requiredText(5, 'Subject must be at least 5 characters', 200, 'Subject'),
  description: requiredText(20, 'Description must be at least 20 characters', 5000, 'Description', { multiline: true }),
  _gotcha: honeypotField,
});
export type SupportTicketInput = z.input<typeof supportTicketSchema>;

/**
 * The plan of an application: optional; `''` (the form's "Not decided yet") is no plan; any other
 * text that is not a plan id is refused with a 400, never stored.
 */
const planField = z
  .union([z.enum(pricingPlanIds), z.literal('')], { error: unknownPlanMessage })
  .optional()
  .transform((value) => (value ? value : undefined));

const goalMessage = 'Please select at least one goal';
export const getStartedRequestSchema = z.object({
  firstName: requiredText(2, 'First name must be at least 2 characters', 100, 'First name'),
  lastName: requiredText(2, 'Last name must be at least 2 characters', 100, 'Last name'),
  email: emailField,
  phone: phoneField,
  dealershipName: requiredText(2, 'Dealership name must be at least 2 characters', 200, 'Dealership name'),
  address: requiredText(10, 'Please enter a complete address', 300, 'Address'),
  city: requiredText(2, 'City is required', 100, 'City'),
  state: requiredText(2, 'State is required', 50, 'State'),
  zipCode: requiredText(5, 'ZIP code must be at least 5 characters', 10, 'ZIP code'),
  inventorySize: z.enum(values(inventorySizes), { error: 'Please select your inventory size' }),
  launchDate: z.enum(values(launchTimelines), { error: 'Please select your preferred launch date' }),
  currentWebsite: optionalText(300, 'Current website'),
  primaryGoals: z
    .array(requiredText(1, goalMessage, 300, 'Goal'), { error: goalMessage })
    .min(1, goalMessage)
    .max(primaryGoalOptions.length, goalMessage),
  currentWebsiteProvider: optionalText(200, 'Current website provider'),
  currentStickerPhotoCompany: optionalText(200, 'Current sticker/photo company'),
  currentFeedProvider: optionalText(200, 'Current feed provider'),
  feedExportDestinations: z
    .array(z.enum(brand.feedExportDestinations, { error: 'Please choose from the listed destinations' }))
    .max(brand.feedExportDestinations.length)
    .default([]),
  additionalFeedDestinations: optionalText(500, 'Additional feed destinations', { multiline: true }),
  additionalInfo: optionalText(5000, 'Additional information', { multiline: true }),
  allowMarketing: z.boolean({ error: 'Marketing consent must be true or false' }).default(false),
  agreeToTerms: z.literal(true, { error: 'You must agree to the terms' }),
  /** The pricing card's plan, carried by `/get-started?plan=` (optional; an unknown plan is a 400). */
  plan: planField,
  _gotcha: honeypotField,
});
export type GetStartedRequestInput = z.input<typeof getStartedRequestSchema>;

// ---------- stored leads, as the API returns them ----------

export const leadStatuses = ['new', 'contacted', 'closed'] as const;
export const leadStatusSchema = z.enum(leadStatuses);
export type LeadStatus = z.infer<typeof leadStatusSchema>;
export const leadStatusLabels: Record<LeadStatus, string> = {
  new: 'New',
  contacted: 'Contacted',
  closed: 'Closed',
};

const leadMeta = {
  id: rowId,
  /** `LW-` + kind letter + id (after-submit.ts): the submitter's thank-you and mail show it. */
  reference: z.string(),
  status: leadStatusSchema,
  note: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
  ...assigneeFields,
};

export const demoRequestRecord = z.object({
  ...leadMeta,
  name: z.string(),
  email: z.string(),
  company: z.string(),
  phone: z.string().nullable(),
  message: z.string().nullable(),
});
export type DemoRequest = z.infer<typeof demoRequestRecord>;

export const contactSubmissionRecord = z.object({
  ...leadMeta,
  name: z.string(),
  email: z.string(),
  company: z.string(),
  phone: z.string(),
  subject: z.string(),
  message: z.string(),
});
export type ContactSubmission = z.infer<typeof contactSubmissionRecord>;

export const supportTicketRecord = z.object({
  ...leadMeta,
  name: z.string(),
  email: z.string(),
  company: z.string(),
  priority: z.string(),
  category: z.string(),
  subject: z.string(),
  description: z.string(),
});
export type SupportTicket = z.infer<typeof supportTicketRecord>;

export const getStartedRequestRecord = z.object({
  ...leadMeta,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  dealershipName: z.string(),
  address: z.string(),
  city: z.string(),
  state: z.string(),
  zipCode: z.string(),
  inventorySize: z.string(),
  launchDate: z.string(),
  currentWebsite: z.string().nullable(),
  primaryGoals: z.array(z.string()),
  currentWebsiteProvider: z.string().nullable(),
  currentStickerPhotoCompany: z.string().nullable(),
  currentFeedProvider: z.string().nullable(),
  feedExportDestinations: z.array(z.string()),
  additionalFeedDestinations: z.string().nullable(),
  additionalInfo: z.string().nullable(),
  allowMarketing: z.boolean(),
  plan: z.string().nullable(),
});
export type GetStartedRequest = z.infer<typeof getStartedRequestRecord>;

/** The four kinds of lead, as named in `PATCH /api/leads/:kind/:id` and `submission:new`. */
export const leadKinds = ['contact', 'support', 'demo', 'get-started'] as const;
export const leadKindSchema = z.enum(leadKinds);
export type LeadKind = z.infer<typeof leadKindSchema>;

export type LeadByKind = {
  contact: ContactSubmission;
  support: SupportTicket;
  demo: DemoRequest;
  'get-started': GetStartedRequest;
};
export type Lead = LeadByKind[LeadKind];

export const leadRecordByKind = {
  contact: contactSubmissionRecord,
  support: supportTicketRecord,
  demo: demoRequestRecord,
  'get-started': getStartedRequestRecord,
} as const;

/**
 * Any lead, for answers that serve every kind (the PATCH). Most specific first: a union keeps the
 * first schema that fits and strips the rest, and a contact row would also fit the demo schema.
 */
export const anyLeadRecord = z.union([getStartedRequestRecord, supportTicketRecord, contactSubmissionRecord, demoRequestRecord]);

/** A staff note's longest text: the PATCH refuses more, and the note boxes stop there. */
export const leadNoteMaxLength = 5000;

export const leadPatchSchema = z
  .object({
    status: z.enum(leadStatuses, { error: 'Status must be new, contacted or closed' }).optional(),
    note: z
      .string({ error: 'Note must be text' })
      .max(leadNoteMaxLength, `Note must be at most ${leadNoteMaxLength} characters`)
      .refine((value) => !hasRefusedCharacters(value, { multiline: true }), controlCharacterMessage)
      .optional(),
  })
  .strict()
  .refine((patch) => patch.status !== undefined || patch.note !== undefined, {
    message: 'Nothing to change: send status or note',
    path: ['status'],
  });
export type LeadPatch = z.infer<typeof leadPatchSchema>;

/** `:kind/:id` of `GET` and `PATCH /api/leads/:kind/:id`. */
export const leadParamsSchema = z.object({
  kind: z.enum(leadKinds, { error: `kind must be one of ${leadKinds.join(', ')}` }),
  id: rowIdParam('id'),
});

// ---------- list queries (keyset paging, search, CSV) ----------

export const listLimitDefault = 100;
export const listLimitMax = 500;

/** Response header of a full page: the `?before=` cursor that fetches the next, older page. */
export const nextCursorHeader = 'x-next-cursor';

/** A keyset cursor is `<createdAt>,<id>` of the last row of the previous page. */
export function listCursor(row: { createdAt: string; id: number }): string {
  return `${row.createdAt},${row.id}`;
}

export const listQuerySchema = z.object({
  limit: z.coerce
    .number({ error: `limit must be a number from 1 to ${listLimitMax}` })
    .int()
    .min(1, `limit must be a number from 1 to ${listLimitMax}`)
    .max(listLimitMax, `limit must be a number from 1 to ${listLimitMax}`)
    .default(listLimitDefault),
  before: z
    .string()
    .regex(/^[^,]+,[^,]+$/, { message: 'before must be a cursor of the form <createdAt>,<id>', abort: true })
    .refine((cursor) => isIsoTimestamp(cursor.split(',')[0]!), { message: cursorDateMessage, abort: true })
    .refine((cursor) => isRowIdText(cursor.split(',')[1]!), rowIdMessage("before's id"))
    .transform((cursor) => {
      const [createdAt, id] = cursor.split(',');
      return { createdAt: createdAt!, id: Number(id) };
    })
    .optional(),
  q: z
    .string()
    .trim()
    .max(200, 'q must be at most 200 characters')
    .refine((value) => !hasRefusedCharacters(value), controlCharacterMessage)
    .optional(),
  status: z.enum(leadStatuses, { error: 'status must be new, contacted or closed' }).optional(),
  format: z.enum(['json', 'csv'], { error: 'format must be json or csv' }).default('json'),
  assignee: assigneeQuerySchema.shape.assignee,
});
export type ListQuery = z.infer<typeof listQuerySchema>;

const count = z.number().int();
const leadCountsByStatus = z.object({ new: count, contacted: count, closed: count });
export type LeadCountsByStatus = z.infer<typeof leadCountsByStatus>;

export const adminCountsSchema = z.object({
  contact: count,
  support: count,
  demo: count,
  getStarted: count,
  chatSessions: count,
  unreadChats: count,
  /** The same lists by status, for the dashboard's filters ("New 12"). */
  byStatus: z.object({
    contact: leadCountsByStatus,
    support: leadCountsByStatus,
    demo: leadCountsByStatus,
    getStarted: leadCountsByStatus,
    chatSessions: z.object({ open: count, resolved: count }),
  }),
});
export type AdminCounts = z.infer<typeof adminCountsSchema>;
