import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { prepareQuery } from '../../../db/prepared';
import type { LeadKind } from '../../contract/leads';

/** Whom a lead's confirmation goes to (the mail policy decides whether it may). */
export interface ConfirmationRecipient {
  email: string;
  name: string;
  /** The pricing plan of an application, when one was picked. */
  plan: string | null;
}

/** The leads whose forms ask one name (every kind but an application). */
type NamedLeadTable = 'contactSubmissions' | 'supportTickets' | 'demoRequests';

function namedLead(table: NamedLeadTable) {
  return prepareQuery((db: Db, params: { id: number }) =>
    db
      .selectFrom(`${table as 'contactSubmissions'} as lead`)
      .select(['lead.email', 'lead.name', sql<string | null>`null`.as('plan')])
      .where('lead.id', '=', params.id),
  );
}

const recipientQueries = {
  contact: namedLead('contactSubmissions'),
  support: namedLead('supportTickets'),
  demo: namedLead('demoRequests'),
  'get-started': prepareQuery((db: Db, params: { id: number }) =>
    db
      .selectFrom('getStartedRequests as lead')
      .select(['lead.email', sql<string>`${sql.ref('lead.firstName')} || ' ' || ${sql.ref('lead.lastName')}`.as('name'), 'lead.plan'])
      .where('lead.id', '=', params.id),
  ),
};

/**
 * The confirmation's recipient of lead `id`, in one statement (a job runs it for every form post):
 * undefined when the lead is gone.
 */
export async function findConfirmationRecipient(db: Db, kind: LeadKind, id: number): Promise<ConfirmationRecipient | undefined> {
  const row = await recipientQueries[kind].first(db, { id });
  return row && { email: row.email, name: row.name, plan: row.plan ?? null };
}
