import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assigneesAnswerSchema,
  assignmentBodySchema,
  type AutoAssignmentSettings,
  autoAssignmentSettingsSchema,
} from '../../../contract/assignment';
import { chatSessionNotFoundMessage, chatSessionParamsSchema, chatSessionSummary, type ChatSessionSummary } from '../../../contract/chat';
import { errorBodySchema } from '../../../contract/common';
import { apiPaths } from '../../../contract/paths';
import { signedInStaffId } from '../../../plugins/auth';
import { HttpError } from '../../../plugins/errors';
import type { Tx } from '../../../events';
import type { JobRequest } from '../../../jobs';
import {
  assigneeOrRefuse,
  autoAssignmentSettings,
  autoAssignmentSettingsLocked,
  listAssignees,
  saveAutoAssignmentSettings,
} from '../../assignment';
import { recordAudit } from '../../audit';
import { assignIfUnassigned, assignSessionRow, nextAgent, oldestQueuedSession } from './chat.assignment.repository';
import type { StaffPresence } from '../realtime/chat.presence';
import * as repository from '../conversation/chat.repository';
import * as inbox from '../conversation/chat.inbox.repository';
import { toSummary } from '../conversation/chat.service';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** Says a session changed, with its row as staff see it now (its assignee's name too). */
async function sessionChanged(tx: Tx, sessionId: string): Promise<ChatSessionSummary> {
  const row = await inbox.findSessionSummary(tx.db, sessionId);
  if (!row) throw new HttpError(404, chatSessionNotFoundMessage);
  const summary = toSummary(row);
  tx.emit({ type: 'chat.session.updated', session: summary });
  return summary;
}

/**
 * A staff member gives a conversation to someone (null: to nobody): pushed to every staff screen
 * (`chat-session:updated`) and audited, in one write. Giving it to whoever has it already changes nothing.
 */
export function assignChat(app: FastifyInstance, actorId: number, sessionId: string, assigneeId: number | null): Promise<ChatSessionSummary> {
  return app.write(async (tx) => {
    const session = await repository.findSession(tx.db, sessionId);
    if (!session) throw new HttpError(404, chatSessionNotFoundMessage);
    if (assigneeId !== null) await assigneeOrRefuse(tx.db, assigneeId);
    if (session.assigneeId === assigneeId) {
      const row = await inbox.findSessionSummary(tx.db, sessionId);
      return toSummary(row!);
    }
    await assignSessionRow(tx.db, sessionId, assigneeId, new Date().toISOString());
    await recordAudit(tx, { actorId, action: 'chat.assigned', subject: { kind: 'chat', id: sessionId }, detail: assigneeId === null ? 'unassigned' : `assignee: ${assigneeId}` });
    return sessionChanged(tx, sessionId);
  });
}

/** At most this many conversations per run of the job; a longer queue is left to the next run, promised at once. */
const handOutsPerRun = 200;

/**
 * Hands out the queue (open, unassigned conversations, oldest first) to the online staff, one
 * conversation per write, until it is empty or everyone is at capacity. Each write reads the
 * settings under their row's lock (PostgreSQL: one auto-assigning write at a time across nodes),
 * so its count of each agent's open conversations is not raced; the assignment itself is the one
 * conditional statement (still open, still nobody's), so a conversation is never given twice.
 * Answers how many it gave, and whether it stopped at the run's limit.
 */
export async function handOutQueue(app: FastifyInstance, presence: StaffPresence): Promise<{ given: number; more: boolean }> {
  let given = 0;
  // Off (the usual case): done without asking Redis who is online.
  if (!(await autoAssignmentSettings(app.db)).enabled) return { given, more: false };
  const online = await presence.onlineStaff();
  if (online.length === 0) return { given, more: false };
  for (let look = 0; look < handOutsPerRun; look += 1) {
    const outcome = await app.write(async (tx): Promise<'done' | 'given' | 'taken'> => {
      const settings = await autoAssignmentSettingsLocked(tx);
      if (!settings.enabled) return 'done';
      const sessionId = await oldestQueuedSession(tx.db);
      if (sessionId === undefined) return 'done';
      const agent = await nextAgent(tx.db, online, settings.capacity);
      if (agent === undefined) return 'done';
      // Someone assigned it by hand a moment ago: look again.
      if (!(await assignIfUnassigned(tx.db, sessionId, agent, new Date().toISOString()))) return 'taken';
      await recordAudit(tx, { actorId: null, action: 'chat.assigned', subject: { kind: 'chat', id: sessionId }, detail: `assignee: ${agent} (auto)` });
      await sessionChanged(tx, sessionId);
      return 'given';
    });
    if (outcome === 'done') return { given, more: false };
    if (outcome === 'given') given += 1;
  }
  return { given, more: true };
}

/** The cross-node nudge: "the auto-assignment settings changed, read them again". */
const autoAssignmentChangedEvent = 'auto-assignment-changed';

/**
 * Whether auto-assignment is on, as this node last read it: at start, after every change (on every
 * node, through the Socket.IO adapter) and whenever a staff member comes online. A new conversation's
 * write asks it instead of the database, so the visitor's path gains no read, and no job is made
 * while auto-assignment is off (the usual case), since that job could only find it off.
 */
class AutoAssignmentSwitch {
  on = false;

  constructor(
    private readonly app: FastifyInstance,
    private readonly handOutLater: () => JobRequest,
  ) {}

  async read(): Promise<boolean> {
    this.on = (await autoAssignmentSettings(this.app.db)).enabled;
    return this.on;
  }

  /**
   * After a change: this node reads the settings again, and so does every other, which answers once
   * it has; the change's request answers after that, so a conversation started on any node after it
   * is seen by the new setting. Once on, the queue is handed out once more: a conversation started
   * on a node that had not read it yet waits no longer. A node too slow to answer (the adapter waits
   * 5 s) reads it when the message reaches it, or when a staff member next comes online there.
   */
  async changed(): Promise<void> {
    await this.read();
    if (this.app.redis) {
      try {
        await this.app.visitorSockets.serverSideEmitWithAck(autoAssignmentChangedEvent);
      } catch (error) {
        this.app.log.warn({ err: error }, 'not every node confirmed reading the auto-assignment settings in time');
      }
    }
    if (this.on) await this.app.write(async (tx) => tx.enqueue(this.handOutLater()));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether auto-assignment is on, as this node knows it (chat.assignment.ts). */
    autoAssignmentSwitch: AutoAssignmentSwitch;
  }
}

/**
 * Auto-assignment (DESIGN.md 11), one job kind: "hand out the queue". It is promised, in the same
 * commit, by what may let it give something: a new conversation while it is on (its first message's write), a
 * conversation resolved (its agent has room), the setting turned on or the capacity changed; and by
 * a staff member coming online (after their presence is stored). One pending job at a time (its
 * dedupe key, let go when it starts, so a trigger during a run promises the next run). The
 * visitor's message path gains nothing: only a session's first message adds the job row.
 */
export function autoAssignChats(app: FastifyInstance, presence: StaffPresence): (staffId: number) => void {
  const handOut = app.jobs.define('chat-auto-assignment', {
    class: 'realtime',
    payload: z.object({}),
    async handle(_payload, context) {
      await app.jobs.releaseDedupeKey(context.jobId);
      const { more } = await handOutQueue(app, presence);
      if (more) await app.write(async (tx) => tx.enqueue(handOutLater()));
    },
  });
  const handOutLater = () => handOut.request({}, { dedupeKey: 'chat-auto-assignment' });
  const autoAssignment = new AutoAssignmentSwitch(app, handOutLater);
  app.decorate('autoAssignmentSwitch', autoAssignment);
  app.addHook('onReady', async () => {
    await autoAssignment.read();
  });
  if (app.redis) {
    app.visitorSockets.on(autoAssignmentChangedEvent, (answer: (read: boolean) => void) => {
      autoAssignment.read().then(
        () => answer(true),
        (error: unknown) => {
          app.log.error({ err: error }, 'auto-assignment settings not read');
          answer(false);
        },
      );
    });
  }

  // A new conversation's promise is keyed by the conversation: one shared row upserted by every new
  // conversation's write would make concurrent first messages wait on each other's lock of it (PostgreSQL).
  app.events.react('chat.message.created', ({ startedBy, message }) =>
    startedBy && autoAssignment.on ? handOut.request({}, { dedupeKey: `chat-auto-assignment:${message.sessionId}` }) : undefined,
  );
  app.events.react('chat.session.updated', ({ session }) => (session.status === 'resolved' && session.assigneeId ? handOutLater() : undefined));
  app.events.react('auto-assignment.changed', ({ enabled }) => (enabled ? handOutLater() : undefined));

  // A staff member came online: the queue may have waited for them.
  return (staffId) => {
    void (async () => {
      if (!(await autoAssignment.read())) return;
      await app.write(async (tx) => tx.enqueue(handOutLater()));
    })().catch((error: unknown) => app.log.error({ err: error, staffId }, 'auto-assignment on arrival failed'));
  };
}

/** Saves the settings: audited, every node told, and the queue handed out when they let it move. */
async function changeAutoAssignment(app: FastifyInstance, actorId: number, settings: AutoAssignmentSettings): Promise<AutoAssignmentSettings> {
  const changed = await app.write(async (tx) => {
    const before = await saveAutoAssignmentSettings(tx, settings);
    if (before.enabled === settings.enabled && before.capacity === settings.capacity) return false;
    const detail = `auto-assignment: ${settings.enabled ? 'on' : 'off'}, capacity ${settings.capacity}`;
    await recordAudit(tx, { actorId, action: 'settings.changed', subject: { kind: 'settings', id: 'auto-assignment' }, detail });
    tx.emit({ type: 'auto-assignment.changed', ...settings });
    return true;
  });
  if (changed) await app.autoAssignmentSwitch.changed();
  return settings;
}

/** Assignment's calls, in the cookie-session scope (registered by staffChatRoutes). */
export async function chatAssignmentRoutes(instance: FastifyInstance): Promise<void> {
  const app = instance.withTypeProvider<ZodTypeProvider>();

  app.put(
    apiPaths.chatSessionAssignee,
    { onRequest: app.requireStaff, schema: { params: chatSessionParamsSchema, body: assignmentBodySchema, response: { 200: chatSessionSummary, ...errors } } },
    async (request) => assignChat(instance, signedInStaffId(request.session), request.params.sessionId, request.body.assigneeId),
  );

  app.get(
    apiPaths.assignees,
    { onRequest: app.requireStaff, schema: { response: { 200: assigneesAnswerSchema, ...errors } } },
    async (request) => ({ me: signedInStaffId(request.session), staff: await listAssignees(instance.db, await instance.staffPresence.onlineStaff()) }),
  );

  app.get(
    apiPaths.autoAssignmentSettings,
    { onRequest: app.requireAdmin, schema: { response: { 200: autoAssignmentSettingsSchema, ...errors } } },
    async () => autoAssignmentSettings(instance.db),
  );

  app.put(
    apiPaths.autoAssignmentSettings,
    { onRequest: app.requireAdmin, schema: { body: autoAssignmentSettingsSchema, response: { 200: autoAssignmentSettingsSchema, ...errors } } },
    async (request) => changeAutoAssignment(instance, signedInStaffId(request.session), request.body),
  );
}
