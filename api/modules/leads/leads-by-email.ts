import type { Db } from '../../../db/client';
import { contactSubjects, type LeadKind, type LeadStatus, leadStatusSchema } from '../../contract/leads';
import { listLeadsByEmail } from './leads.repository';

/** A lead as the places that list one contact's leads show it (a conversation's context, the contact's timeline). */
export interface LeadByEmail {
  kind: LeadKind;
  id: number;
  name: string;
  email: string;
  /** What it is about: a contact's subject (its label), a ticket's subject, a demo's company, a get-started's dealership. */
  summary: string;
  status: LeadStatus;
  createdAt: string;
}

/** The leads of the four forms with `email` in any case, newest first, at most `limit`. */
export async function leadsByEmail(db: Db, email: string, limit: number): Promise<LeadByEmail[]> {
  const rows = await listLeadsByEmail(db, email, limit);
  return rows.map((row) => ({
    kind: row.kind,
    id: Number(row.id),
    name: row.name,
    email: row.email,
    summary: row.kind === 'contact' ? (contactSubjects.find((subject) => subject.value === row.summary)?.label ?? row.summary) : row.summary,
    status: leadStatusSchema.catch('new').parse(row.status),
    createdAt: row.createdAt,
  }));
}
