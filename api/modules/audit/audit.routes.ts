import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { staffDisplayName } from '../../contract/auth';
import { auditActionLabels, auditPageSchema, auditPageSize, auditPaths, auditQuerySchema, type AuditEntryView, type AuditPage } from '../../contract/audit';
import { listAuditEntries } from './audit.repository';

/** The audit log screen's one call (admins): a page, newest first, searchable by action, actor or subject. */
export async function auditRoutes(app: FastifyInstance) {
  const routes = app.withTypeProvider<ZodTypeProvider>();
  routes.get(
    auditPaths.log,
    { onRequest: app.requireAdmin, schema: { querystring: auditQuerySchema, response: { 200: auditPageSchema } } },
    async (request): Promise<AuditPage> => {
      const { before, q } = request.query;
      const cursor = before?.split(':').map(Number);
      const text = q ?? '';
      const search =
        text === ''
          ? undefined
          : {
              text,
              actions: Object.entries(auditActionLabels)
                .filter(([, label]) => label.toLowerCase().includes(text.toLowerCase()))
                .map(([action]) => action),
            };
      const rows = await listAuditEntries(app.db, {
        limit: auditPageSize + 1,
        before: cursor && { at: cursor[0]!, id: cursor[1]! },
        search,
      });
      const page = rows.slice(0, auditPageSize);
      const entries = page.map(
        (row): AuditEntryView => ({
          id: row.id,
          at: new Date(Number(row.at)).toISOString(),
          action: row.action,
          // The actor as stored with the entry: a rename since changes nothing here.
          actorId: row.actorId,
          actorEmail: row.actorEmail,
          actorName: actorNameOf(row),
          subject: subjectOf(
            row.subjectKind,
            row.subjectId,
            row.subjectEmail === null ? undefined : `${staffDisplayName({ email: row.subjectEmail, displayName: row.subjectDisplayName })} (${row.subjectEmail})`,
          ),
          detail: row.detail,
        }),
      );
      const last = page.at(-1);
      return { entries, nextCursor: rows.length > auditPageSize && last ? `${Number(last.at)}:${last.id}` : null };
    },
  );
}

/** The actor's name then; an entry whose actor was never recorded by email (its account gone before it was kept) by id. */
function actorNameOf(row: { actorId: number | null; actorEmail: string | null; actorDisplayName: string | null }): string | null {
  if (row.actorEmail !== null) return staffDisplayName({ email: row.actorEmail, displayName: row.actorDisplayName });
  return row.actorId === null ? null : `staff #${row.actorId}`;
}

/** What an entry is about, by name and email for a staff account and by kind and id otherwise: never the thing's data. */
function subjectOf(kind: string | null, id: string | null, staffName: string | undefined): string | null {
  if (kind === null || id === null) return null;
  if (kind === 'staff') return staffName ?? `staff #${id}`;
  if (kind === 'invite') return `invite #${id}`;
  if (kind === 'chat') return `conversation ${id.slice(0, 8)}`;
  if (kind.startsWith('lead:')) return `${kind.slice('lead:'.length)} lead #${id}`;
  return `${kind} ${id}`;
}
