import type { AdminLoginInput, SessionInfo, adminLoginAnswerSchema } from '../../../../api/contract/auth';
import type { TranscriptAnswer } from '../../../../api/contract/continuity';
import type { AssigneeFilter, AssigneesAnswer, AutoAssignmentSettings } from '../../../../api/contract/assignment';
import type { z } from 'zod';
import type { ChatSessionContext, ChatSessionPatch, ChatSessionStatus, ChatSessionSummary, StaffChatMessage } from '../../../../api/contract/chat';
import type { StaffChatResyncAnswer } from '../../../../api/contract/chat-resync';
import type { ContactTimeline } from '../../../../api/contract/contacts';
import type { TeamReport } from '../../../../api/contract/reports';
import type { AdminCounts, LeadByKind, LeadKind, LeadPatch, LeadStatus } from '../../../../api/contract/leads';
import { listLimitDefault } from '../../../../api/contract/leads';
import { api, ApiError } from '../../../lib/api-client';
import { apiPaths, leadPaths, pathTo, withQuery } from '../../../../api/contract/paths';

export const adminPageSize = listLimitDefault;

const get = <T>(path: string) => api.get<T>(path);

let unauthorizedHandler: () => void = () => {};

/** Any 401 from a staff call means the server no longer sees a live staff session. */
export function onStaffUnauthorized(handler: () => void): void {
  unauthorizedHandler = handler;
}

export async function staffCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) unauthorizedHandler();
    throw error;
  }
}

interface PageQuery<Status extends string = string> {
  before?: string;
  q?: string;
  /** Only this status; absent or null: all. */
  status?: Status | null;
  /** Whose rows; absent or 'all': everyone's. */
  assignee?: AssigneeFilter;
  limit?: number;
}

export const adminApi = {
  /** Who is signed in; also counts as staff activity on the server while the staff session is live. */
  session: () => get<SessionInfo>(apiPaths.session),
  login: (input: AdminLoginInput) => api.post<z.infer<typeof adminLoginAnswerSchema>>(apiPaths.staffLogin, input),
  logout: () => api.post<unknown>(apiPaths.staffLogout, {}),

  counts: (assignee: AssigneeFilter = 'all') => staffCall(() => get<AdminCounts>(withQuery(apiPaths.adminCounts, { assignee: assigneeParam(assignee) }))),
  leads: <K extends LeadKind>(kind: K, query: PageQuery<LeadStatus> = {}) =>
    staffCall(() =>
      get<LeadByKind[K][]>(
        withQuery(leadPaths[kind].list, {
          limit: query.limit ?? adminPageSize,
          before: query.before,
          q: query.q,
          status: query.status ?? undefined,
          assignee: assigneeParam(query.assignee),
        }),
      ),
    ),
  /** One lead with every field its form collected. */
  lead: <K extends LeadKind>(kind: K, id: number) => staffCall(() => api.get<LeadByKind[K]>(pathTo(apiPaths.lead, { kind, id }))),
  patchLead: <K extends LeadKind>(kind: K, id: number, patch: LeadPatch) =>
    staffCall(() => api.patch<LeadByKind[K]>(pathTo(apiPaths.lead, { kind, id }), patch)),

  chatSessions: (query: PageQuery<ChatSessionStatus> = {}) =>
    staffCall(() =>
      get<ChatSessionSummary[]>(
        withQuery(apiPaths.chatSessions, {
          limit: query.limit ?? adminPageSize,
          before: query.before,
          q: query.q,
          status: query.status ?? undefined,
          assignee: assigneeParam(query.assignee),
        }),
      ),
    ),
  /** One session's row, as the list shows it: its summary after the dashboard's own call. */
  chatSession: (sessionId: string) => staffCall(() => api.get<ChatSessionSummary>(pathTo(apiPaths.chatSession, { sessionId }))),
  chatMessages: (sessionId: string) =>
    staffCall(() => api.get<StaffChatMessage[]>(pathTo(apiPaths.chatHistory, { sessionId }))),
  /** Who the visitor is: pages of this visit, browser, time zone, earlier conversations, leads by the same email. */
  chatContext: (sessionId: string) => staffCall(() => api.get<ChatSessionContext>(pathTo(apiPaths.chatSessionContext, { sessionId }))),
  patchChatSession: (sessionId: string, patch: ChatSessionPatch) =>
    staffCall(() => api.patch<ChatSessionSummary>(pathTo(apiPaths.chatSession, { sessionId }), patch)),
  /** A reconnect's chat catch-up: the sessions whose version moved since those held (api/contract/chat-resync.ts). */
  resyncChats: (known: { id: string; version: number }[]) =>
    staffCall(() => api.post<StaffChatResyncAnswer>(apiPaths.staffChatResync, { known })),
  /** One conversation's messages after the seq held. */
  chatMessagesAfter: (sessionId: string, afterSeq: number) =>
    staffCall(() => api.get<StaffChatMessage[]>(withQuery(pathTo(apiPaths.chatHistory, { sessionId }), { afterSeq }))),
  reply: (sessionId: string, message: string) =>
    staffCall(() => api.post<StaffChatMessage>(apiPaths.staffReply, { sessionId, message })),
  /** Mails the conversation to the visitor's own stored email; answers that address. */
  sendTranscript: (sessionId: string) => staffCall(() => api.post<TranscriptAnswer>(pathTo(apiPaths.chatTranscript, { sessionId }), undefined)),
  /** One contact's leads and conversations, newest first. */
  contactTimeline: (email: string) => staffCall(() => get<ContactTimeline>(withQuery(apiPaths.contactTimeline, { email }))),
  /** The team's figures over whole UTC days. */
  report: (range: { from: string; to: string }) => staffCall(() => get<TeamReport>(withQuery(apiPaths.reports, range))),
  /** The staff one may assign to, and who asks. */
  assignees: () => staffCall(() => get<AssigneesAnswer>(apiPaths.assignees)),
  assignChat: (sessionId: string, assigneeId: number | null) =>
    staffCall(() => api.put<ChatSessionSummary>(pathTo(apiPaths.chatSessionAssignee, { sessionId }), { assigneeId })),
  assignLead: <K extends LeadKind>(kind: K, id: number, assigneeId: number | null) =>
    staffCall(() => api.put<LeadByKind[K]>(pathTo(apiPaths.leadAssignee, { kind, id }), { assigneeId })),
  autoAssignment: () => staffCall(() => get<AutoAssignmentSettings>(apiPaths.autoAssignmentSettings)),
  saveAutoAssignment: (settings: AutoAssignmentSettings) => staffCall(() => api.put<AutoAssignmentSettings>(apiPaths.autoAssignmentSettings, settings)),
};

/** 'all' is the server's default: left out of the address. */
function assigneeParam(assignee: AssigneeFilter | undefined): AssigneeFilter | undefined {
  return assignee === 'all' ? undefined : assignee;
}

/** The CSV of what a tab shows: every row matching its search, status and assignee filters, not just the loaded pages. */
export function leadCsvHref(kind: LeadKind, q: string, status: LeadStatus | null = null, assignee: AssigneeFilter = 'all'): string {
  return withQuery(leadPaths[kind].list, { format: 'csv', q: q.trim() || undefined, status: status ?? undefined, assignee: assigneeParam(assignee) });
}
