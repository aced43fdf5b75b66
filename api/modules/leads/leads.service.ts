import type { z } from 'zod';
import type { Db } from '../../../db/client';
import type { Write } from '../../events';
import {
  type ContactSubmission,
  type ContactSubmissionInput,
  contactSubmissionSchema,
  type DemoRequest,
  demoRequestSchema,
  type GetStartedRequest,
  getStartedRequestSchema,
  type Lead,
  type LeadByKind,
  type LeadKind,
  type LeadPatch,
  leadRecordByKind,
  type LeadStatus,
  leadStatuses,
  type SupportTicket,
  supportTicketSchema,
} from '../../contract/leads';
import type { AdminCounts } from '../../contract/leads';
import { leadReference } from '../../contract/after-submit';
import { toCsv } from './leads.csv';
import * as repository from './leads.repository';
import type { LeadAssigneeColumns, LeadFilter, LeadRowByKind, NewLeadRowByKind } from './leads.repository';
import { staffDisplayName } from '../../contract/auth';
import { assigneeFields } from '../../contract/assignment';

/** The parsed (trimmed, defaulted) body of each form, as the routes hand it over. */
export interface LeadInputByKind {
  contact: z.infer<typeof contactSubmissionSchema>;
  support: z.infer<typeof supportTicketSchema>;
  demo: z.infer<typeof demoRequestSchema>;
  'get-started': z.infer<typeof getStartedRequestSchema>;
}

export const leadKindLabels: Record<LeadKind, string> = {
  contact: 'Contact form',
  support: 'Support ticket',
  demo: 'Demo request',
  'get-started': 'Get started request',
};

function status(value: string): LeadStatus {
  return (leadStatuses as readonly string[]).includes(value) ? (value as LeadStatus) : 'new';
}

function jsonList(text: string): string[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}

// ---------- rows to API objects (the service boundary) ----------

const toApi: { [K in LeadKind]: (row: LeadRowByKind[K]) => LeadByKind[K] } = {
  contact: (row): ContactSubmission => ({ ...row, reference: leadReference('contact', row.id), status: status(row.status) }),
  support: (row): SupportTicket => ({ ...row, reference: leadReference('support', row.id), status: status(row.status) }),
  demo: (row): DemoRequest => ({ ...row, reference: leadReference('demo', row.id), status: status(row.status) }),
  'get-started': (row): GetStartedRequest => ({
    ...row,
    reference: leadReference('get-started', row.id),
    status: status(row.status),
    primaryGoals: jsonList(row.primaryGoals),
    feedExportDestinations: jsonList(row.feedExportDestinations),
    allowMarketing: row.allowMarketing === 1,
  }),
};

export function toLead<K extends LeadKind>(kind: K, stored: LeadRowByKind[K] & Partial<LeadAssigneeColumns>): LeadByKind[K] {
  const { assigneeEmail, assigneeDisplayName, ...row } = stored;
  const lead = (toApi[kind] as (row: LeadRowByKind[K]) => LeadByKind[K])(row as LeadRowByKind[K]);
  const assigneeName = assigneeEmail ? staffDisplayName({ email: assigneeEmail, displayName: assigneeDisplayName ?? null }) : null;
  return { ...lead, assigneeId: row.assigneeId ?? null, assigneeName };
}

// ---------- API inputs to rows ----------

function newRow<K extends LeadKind>(kind: K, input: LeadInputByKind[K], now: string): NewLeadRowByKind[K] {
  const stamps = { createdAt: now, updatedAt: now };
  // The honeypot never reaches the database.
  const { _gotcha: _honeypot, ...fields } = input;
  if (kind === 'get-started') {
    const form = fields as Omit<LeadInputByKind['get-started'], '_gotcha'>;
    const { agreeToTerms: _agreed, primaryGoals, feedExportDestinations, allowMarketing, ...rest } = form;
    const row: NewLeadRowByKind['get-started'] = {
      ...rest,
      currentWebsite: rest.currentWebsite ?? null,
      currentWebsiteProvider: rest.currentWebsiteProvider ?? null,
      currentStickerPhotoCompany: rest.currentStickerPhotoCompany ?? null,
      currentFeedProvider: rest.currentFeedProvider ?? null,
      additionalFeedDestinations: rest.additionalFeedDestinations ?? null,
      additionalInfo: rest.additionalInfo ?? null,
      primaryGoals: JSON.stringify(primaryGoals),
      feedExportDestinations: JSON.stringify(feedExportDestinations),
      allowMarketing: allowMarketing ? 1 : 0,
      plan: rest.plan ?? null,
      ...stamps,
    };
    return row as NewLeadRowByKind[K];
  }
  if (kind === 'demo') {
    const form = fields as Omit<LeadInputByKind['demo'], '_gotcha'>;
    return { ...form, phone: form.phone ?? null, message: form.message ?? null, ...stamps } as NewLeadRowByKind[K];
  }
  return { ...(fields as Omit<ContactSubmissionInput, '_gotcha'>), ...stamps } as NewLeadRowByKind[K];
}

// ---------- notification mail ----------

/** `dealershipName` -> `Dealership name`. */
function fieldLabel(key: string): string {
  const words = key.replace(/([A-Z])/g, ' $1').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function leadName(lead: Lead): string {
  return 'firstName' in lead ? `${lead.firstName} ${lead.lastName}` : lead.name;
}

const notMailed = new Set(['id', 'status', 'note', 'updatedAt']);

/** Plain text, so nothing a visitor typed can become markup in a staff member's mail client. */
export function notificationText(kind: LeadKind, lead: Lead): string {
  const lines = Object.entries(lead)
    .filter(([key]) => !notMailed.has(key))
    .map(([key, value]) => {
      const shown = Array.isArray(value) ? value.join(', ') : typeof value === 'boolean' ? (value ? 'yes' : 'no') : (value ?? '');
      return `${fieldLabel(key)}: ${String(shown)}`;
    });
  return [`A new ${leadKindLabels[kind].toLowerCase()} came in on the website.`, '', ...lines, ''].join('\n');
}

export interface LeadsServiceDeps {
  db: Db;
  write: Write;
}

/** Leads from the four public forms, and the staff's work on them. */
/** One lead as stored, every field its form collected; undefined when there is no such lead (a notice, a webhook). */
export async function findLead<K extends LeadKind>(db: Db, kind: K, id: number): Promise<LeadByKind[K] | undefined> {
  const row = await repository.findLeadRow(db, kind, id);
  return row ? toLead(kind, row) : undefined;
}

export function createLeadsService(deps: LeadsServiceDeps) {
  const { db, write } = deps;

  return {
    /** Stores a lead: `lead.created` tells staff (live) and promises the notice mail (leads/index.ts). */
    async create<K extends LeadKind>(kind: K, input: LeadInputByKind[K]): Promise<LeadByKind[K]> {
      const values = newRow(kind, input, new Date().toISOString());
      return write(async (tx) => {
        const lead = toLead(kind, await repository.insertLeadRow(tx.db, kind, values));
        tx.emit({ type: 'lead.created', kind, lead });
        return lead;
      });
    },

    async list<K extends LeadKind>(kind: K, filter: LeadFilter): Promise<LeadByKind[K][]> {
      const rows = await repository.listLeadRows(db, kind, filter);
      return rows.map((row) => toLead(kind, row));
    },

    /** One lead as stored, every field its form collected; undefined when there is no such lead. */
    get<K extends LeadKind>(kind: K, id: number): Promise<LeadByKind[K] | undefined> {
      return findLead(db, kind, id);
    },

    /** Every matching row as CSV, columns in the order of the API record. */
    async csv(kind: LeadKind, filter: Omit<LeadFilter, 'limit' | 'before'>): Promise<string> {
      const leads = await this.list(kind, filter);
      // The export's columns stay those of the form and its status (who works a lead is the inbox's business).
      return toCsv(Object.keys(leadRecordByKind[kind].shape).filter((column) => !(column in assigneeFields)), leads);
    },

    /** Changes status and/or note (`lead.updated`: staff screens get the changed row). Undefined when there is no such lead. */
    async update<K extends LeadKind>(kind: K, id: number, patch: LeadPatch): Promise<LeadByKind[K] | undefined> {
      return write(async (tx) => {
        const row = await repository.updateLeadRow(tx.db, kind, id, patch);
        if (!row) return undefined;
        const lead = toLead(kind, row);
        tx.emit({ type: 'lead.updated', kind, lead });
        return lead;
      });
    },

    /** The figures of the rows an assignee filter shows (undefined: every row; null: the unassigned). */
    async counts(assigneeId?: number | null): Promise<AdminCounts> {
      const [totals, byStatus] = await Promise.all([repository.countAll(db, assigneeId), repository.countAllByStatus(db, assigneeId)]);
      return { ...totals, byStatus };
    },
  };
}

export type LeadsService = ReturnType<typeof createLeadsService>;
