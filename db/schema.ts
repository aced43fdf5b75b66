import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely';
import type {
  ChatSessionsTable,
  ChatMessagesTable,
  ChatPageViewsTable,
  ChatContinuityMailsTable,
  ChatSessionGrantsTable,
  ChatTranscriptRequestsTable,
  ChatNotesTable,
} from './schema.chat';
import type { Id, OptionalId, SqlBoolean } from './schema.columns';

export type * from './schema.chat';

/**
 * One interface per table. Columns are camelCase here and snake_case in SQL (CamelCasePlugin).
 * Timestamps are ISO-8601 UTC text; booleans are 0/1 integers; list columns are JSON text.
 */

interface LeadColumns {
  id: Id;
  status: ColumnType<string, string | undefined, string>;
  note: ColumnType<string, string | undefined, string>;
  createdAt: string;
  updatedAt: string;
  /** The staff account working it (db/migrations/2026-12-21T0200_assignment.ts); null: nobody. */
  assigneeId: OptionalId;
}

/** Counts an account's password changes; a session signed in under an older count is signed out. */
type CredentialVersion = ColumnType<number, number | undefined, number>;

export interface UsersTable {
  id: Id;
  username: string;
  email: string | null;
  passwordHash: string;
  credentialVersion: CredentialVersion;
  createdAt: string;
}

/** A staff member's role (db/migrations/2026-12-10T0100_staff_roles.ts); an account made without one is an agent. */
export type StaffRoleColumn = 'admin' | 'agent';

export interface AdminsTable {
  id: Id;
  email: string;
  passwordHash: string;
  credentialVersion: CredentialVersion;
  role: ColumnType<StaffRoleColumn, StaffRoleColumn | undefined, StaffRoleColumn>;
  /** The name other staff see on this member's replies; null: the part of the email before the @. */
  displayName: ColumnType<string | null, string | null | undefined, string | null>;
  createdAt: string;
  /** When an admin deactivated the account (ISO); null while active. A deactivated account cannot sign in. */
  deactivatedAt: ColumnType<string | null, string | null | undefined, string | null>;
  /** The account's latest sign-in (ISO), for the Team screen. */
  lastSignInAt: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface SessionsTable {
  sid: string;
  data: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  /** The staff account the session is signed in to (the same as in `data`), for ending its sessions. */
  adminId: OptionalId;
  /** The dealer account the session is signed in to. */
  dealerId: OptionalId;
}

export interface PasswordResetsTable {
  id: Id;
  email: string;
  /** SHA-256 of the mailed token; the token itself is never stored. */
  token: string;
  expiresAt: string;
  createdAt: string;
  used: SqlBoolean;
}

export interface DemoRequestsTable extends LeadColumns {
  name: string;
  email: string;
  company: string;
  phone: string | null;
  message: string | null;
}

export interface ContactSubmissionsTable extends LeadColumns {
  name: string;
  email: string;
  company: string;
  phone: string;
  subject: string;
  message: string;
}

export interface SupportTicketsTable extends LeadColumns {
  name: string;
  email: string;
  company: string;
  priority: string;
  category: string;
  subject: string;
  description: string;
}

export interface GetStartedRequestsTable extends LeadColumns {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  dealershipName: string;
  address: string;
  city: string;
  state: string;
  zipCode: string;
  inventorySize: string;
  launchDate: string;
  currentWebsite: string | null;
  primaryGoals: string;
  currentWebsiteProvider: string | null;
  currentStickerPhotoCompany: string | null;
  currentFeedProvider: string | null;
  feedExportDestinations: string;
  additionalFeedDestinations: string | null;
  additionalInfo: string | null;
  allowMarketing: SqlBoolean;
  /** The pricing plan picked on a card (`pricingPlanIds`), or null. */
  plan: string | null;
}

export interface TrialSignupsTable {
  id: Id;
  email: string;
  name: string;
  company: string | null;
  plan: string;
  createdAt: string;
}

/** Work promised for later (api/jobs). Times are epoch milliseconds. */
export interface JobsTable {
  id: Id;
  kind: string;
  /** The job class whose slots run it (api/jobs/runner.ts `jobClasses`), from its kind's definition. */
  class: ColumnType<string, string | undefined, string>;
  /** JSON: ids, never copies of personal data. */
  payload: string;
  state: ColumnType<'pending' | 'done' | 'dead', 'pending' | undefined, 'pending' | 'done' | 'dead'>;
  runAt: number;
  dueAt: number;
  attempts: ColumnType<number, number | undefined, number>;
  lockedUntil: number | null;
  lockedBy: string | null;
  dedupeKey: string | null;
  lastError: string | null;
  createdAt: number;
  finishedAt: number | null;
}

/**
 * One address as the mail policy knows it (api/modules/mail), by its hash only: when it proved it wants
 * our mail, and when it asked for none (or was erased). Epoch ms.
 */
export interface MailAddressesTable {
  addressHash: string;
  verifiedAt: number | null;
  suppressedAt: number | null;
  suppressedReason: 'unsubscribed' | 'erased' | null;
}

/** One mail sent, by the job that sent it: whom to (lower case), why, and when (epoch ms). */
export interface SentMailsTable {
  id: Id;
  jobId: number | null;
  /** When the sending job was due (epoch ms): with `jobId`, one promise of the job (its row is reused when its dedupe key is taken over). */
  jobDueAt: number | null;
  recipient: string;
  purpose: string;
  subject: string;
  messageId: string | null;
  /** The `.eml` file it was written to, without SMTP. */
  outboxFile: string | null;
  /** 1 when the address had proven it wants our mail when this went. */
  toVerified: number;
  sentAt: number;
}

/** A row a sent mail is about: `session:<id>` or `lead:<kind>:<id>`. */
export interface SentMailSubjectsTable {
  sentMailId: number;
  subject: string;
}

/** Work waiting for an address to open its mailed confirmation link: a job kind and its payload of ids. */
export interface MailAddressConfirmationsTable {
  id: Id;
  /** Lower case: the confirmation mail goes to it. */
  address: string;
  thenKind: string;
  thenPayload: string;
  createdAt: number;
  confirmedAt: number | null;
}

/** One staff action (api/modules/audit): who, what, on which thing, when; never the data itself. */
export interface AuditLogTable {
  id: Id;
  /** Epoch milliseconds. */
  at: number;
  /** The staff account that acted; null: the app itself (a scheduled job). */
  actorId: number | null;
  /** That account's email and display name when it acted (a rename later changes neither); null with no actor. */
  actorEmail: ColumnType<string | null, string | null | undefined, string | null>;
  actorDisplayName: ColumnType<string | null, string | null | undefined, string | null>;
  action: string;
  subjectKind: string | null;
  subjectId: string | null;
  detail: string | null;
}

/** One of the team's canned replies: a title and a text with `{name}` / `{email}` placeholders. */
export interface CannedRepliesTable {
  id: Id;
  title: string;
  text: string;
  createdAt: string;
  updatedAt: string;
}

/** A set-password link mailed to a new staff member (api/modules/team): 48 hours, used once. */
export interface StaffInvitesTable {
  id: Id;
  email: string;
  displayName: string;
  role: StaffRoleColumn;
  /** SHA-256 of the mailed token; the token itself is never stored. */
  tokenHash: string;
  /** The admin who sent it. */
  invitedBy: number | null;
  createdAt: string;
  expiresAt: string;
  /** When the link was used or withdrawn (a newer invite to the same email withdraws it). */
  usedAt: ColumnType<string | null, string | null | undefined, string | null>;
}

/** A webhook subscription (api/modules/webhooks). `events` is a JSON list; times are epoch milliseconds. */
export interface WebhooksTable {
  id: Id;
  url: string;
  events: string;
  /** Signs the deliveries (HMAC-SHA256); shown to the admin once, at creation. */
  secret: string;
  createdAt: number;
  /** Its receiver's health (api/modules/webhooks): first failure since its last 2xx, the pause, failures in a row, the last one's class. */
  failingSince: ColumnType<number | null, number | null | undefined, number | null>;
  pausedUntil: ColumnType<number | null, number | null | undefined, number | null>;
  failures: ColumnType<number, number | undefined, number>;
  lastFailure: ColumnType<string | null, string | null | undefined, string | null>;
}

/** One event for one subscription: what it is about by kind and id, never a copy of it. */
export interface WebhookDeliveriesTable {
  /** Random: the receiver's idempotency key (`X-Lotwise-Delivery`). */
  id: string;
  webhookId: number;
  eventId: string;
  eventType: string;
  /** `lead:<kind>`, `chat-message` or `test`. */
  subjectKind: string;
  subjectId: string;
  eventAt: number;
  deliveredAt: number | null;
}

/** One try of a delivery: the receiver's status code, or the error; how long it took. */
export interface WebhookAttemptsTable {
  id: Id;
  deliveryId: string;
  at: number;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** One app-wide setting per row, its value JSON (auto-assignment: api/modules/chat/assignment/chat.assignment.ts). */
export interface SettingsTable {
  key: string;
  value: string;
  /** Epoch milliseconds. */
  updatedAt: number;
}

export interface Database {
  users: UsersTable;
  admins: AdminsTable;
  sessions: SessionsTable;
  passwordResets: PasswordResetsTable;
  demoRequests: DemoRequestsTable;
  contactSubmissions: ContactSubmissionsTable;
  supportTickets: SupportTicketsTable;
  getStartedRequests: GetStartedRequestsTable;
  trialSignups: TrialSignupsTable;
  chatSessions: ChatSessionsTable;
  chatMessages: ChatMessagesTable;
  chatPageViews: ChatPageViewsTable;
  jobs: JobsTable;
  chatContinuityMails: ChatContinuityMailsTable;
  chatSessionGrants: ChatSessionGrantsTable;
  mailAddresses: MailAddressesTable;
  sentMails: SentMailsTable;
  sentMailSubjects: SentMailSubjectsTable;
  mailAddressConfirmations: MailAddressConfirmationsTable;
  chatTranscriptRequests: ChatTranscriptRequestsTable;
  auditLog: AuditLogTable;
  chatNotes: ChatNotesTable;
  cannedReplies: CannedRepliesTable;
  staffInvites: StaffInvitesTable;
  webhooks: WebhooksTable;
  webhookDeliveries: WebhookDeliveriesTable;
  webhookAttempts: WebhookAttemptsTable;
  settings: SettingsTable;
}

export type UserRow = Selectable<UsersTable>;
export type AdminRow = Selectable<AdminsTable>;
export type CannedReplyRow = Selectable<CannedRepliesTable>;
export type PasswordResetRow = Selectable<PasswordResetsTable>;
export type DemoRequestRow = Selectable<DemoRequestsTable>;
export type ContactSubmissionRow = Selectable<ContactSubmissionsTable>;
export type SupportTicketRow = Selectable<SupportTicketsTable>;
export type GetStartedRequestRow = Selectable<GetStartedRequestsTable>;
export type ChatSessionRow = Selectable<ChatSessionsTable>;
export type ChatMessageRow = Selectable<ChatMessagesTable>;
export type NewChatMessage = Insertable<ChatMessagesTable>;
export type NewChatSession = Insertable<ChatSessionsTable>;
export type ChatPageViewRow = Selectable<ChatPageViewsTable>;
export type ChatSessionUpdate = Updateable<ChatSessionsTable>;

/** The four lead tables, by the lead kind of the API. */
export const leadTables = {
  contact: 'contactSubmissions',
  support: 'supportTickets',
  demo: 'demoRequests',
  'get-started': 'getStartedRequests',
} as const;
export type LeadTable = (typeof leadTables)[keyof typeof leadTables];
export type JobRow = Selectable<JobsTable>;
