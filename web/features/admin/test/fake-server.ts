import { vi } from 'vitest';
import { type SessionInfo, staffDisplayName } from '../../../../api/contract/auth';
import type { ChatSessionSummary, StaffChatMessage } from '../../../../api/contract/chat';
import type { Lead, LeadKind } from '../../../../api/contract/leads';
import { emptyCounts, chatContext, chatSession } from './rows';

export * from './rows';

type Handler = (request: { url: URL; method: string; body: unknown }) => { status?: number; body?: unknown } | undefined;

export interface FakeServer {
  /** Every request the page made, as `METHOD /path?query`. */
  calls: string[];
  bodies: { call: string; body: unknown }[];
  on(route: string, handler: Handler): void;
}

const leadListPaths: Record<string, LeadKind> = {
  '/api/contact-submissions': 'contact',
  '/api/support-tickets': 'support',
  '/api/demo-requests': 'demo',
  '/api/get-started-requests': 'get-started',
};

/** The columns the server's `?q=` searches, per kind of lead. */
const leadSearchFields: Record<LeadKind, string[]> = {
  contact: ['name', 'email', 'company', 'subject'],
  support: ['name', 'email', 'company', 'subject'],
  demo: ['name', 'email', 'company'],
  'get-started': ['firstName', 'lastName', 'email', 'dealershipName'],
};

function contains(value: unknown, needle: string): boolean {
  return typeof value === 'string' && value.toLowerCase().includes(needle);
}

function newestLeadFirst(a: Lead, b: Lead): number {
  if (a.createdAt !== b.createdAt) return a.createdAt < b.createdAt ? 1 : -1;
  return b.id - a.id;
}

function newestActivityFirst(a: ChatSessionSummary, b: ChatSessionSummary): number {
  if (a.lastActivity !== b.lastActivity) return a.lastActivity < b.lastActivity ? 1 : -1;
  return a.id < b.id ? 1 : -1;
}

/**
 * What the server stored beyond a test's scripted answers: the rows and messages its pushes
 * announced (the fake socket's `serverPush`), the replies it answered and the reads it was told of.
 * A list or session read answers with them as the real server would: the scripted rows with the
 * newer messages counted in, and the rows only pushes know of that match the search.
 */
class StoredData {
  private readonly messages = new Map<number, StaffChatMessage>();
  private readonly readUpTo = new Map<string, number>();
  private readonly createdLeads = new Map<LeadKind, Map<number, Lead>>();
  private readonly updatedLeads = new Map<number, Lead>();

  constructor(private readonly scriptedSessions: () => ChatSessionSummary[]) {}

  recordPush(event: string, payload: unknown): void {
    if (event === 'chat:message') this.storeMessage(payload as StaffChatMessage);
    if (event === 'submission:new') {
      const { kind, item } = payload as { kind: LeadKind; item: Lead };
      if (!this.createdLeads.has(kind)) this.createdLeads.set(kind, new Map());
      this.createdLeads.get(kind)!.set(item.id, item);
    }
    if (event === 'lead:updated') {
      const { item } = payload as { item: Lead };
      this.updatedLeads.set(item.id, item);
    }
  }

  /** The server's side of a call it answered with success. */
  recordAnswer(method: string, url: URL, body: unknown, answer: unknown): void {
    if (method === 'POST' && url.pathname === '/api/admin-chat-reply') {
      const reply = answer as StaffChatMessage;
      this.storeMessage(reply);
      // A staff reply marks the visitor's messages read.
      this.readUpTo.set(reply.sessionId, reply.seq);
    }
    const patched = method === 'PATCH' && /^\/api\/chat-sessions\/([^/]+)$/.exec(url.pathname);
    if (patched && (body as { read?: boolean } | undefined)?.read) {
      const sessionId = decodeURIComponent(patched[1]!);
      const seqs = [...this.messages.values()].filter((message) => message.sessionId === sessionId).map((message) => message.seq);
      this.readUpTo.set(sessionId, Math.max((answer as ChatSessionSummary).lastMessageSeq, ...seqs));
    }
  }

  /** A successful GET's answer, with what was stored since the script counted in. */
  completeRead(url: URL, answer: unknown): unknown {
    if (!Array.isArray(answer)) return answer;
    const q = url.searchParams.get('q')?.trim().toLowerCase() ?? '';
    const limit = Number(url.searchParams.get('limit') ?? 100);
    // `?status=`: only the rows of that status, as the server filters them.
    const status = url.searchParams.get('status');
    const ofStatus = (row: { status: string }) => !status || row.status === status;
    // A deeper page: the stored rows are newer than its cursor, on the first page.
    const firstPage = !url.searchParams.has('before');
    if (url.pathname === '/api/chat-sessions') {
      const rows = (answer as ChatSessionSummary[]).map((row) => this.summary(row.id, row)!);
      const listed = new Set(rows.map((row) => row.id));
      if (firstPage) {
        for (const sessionId of this.storedSessionIds()) {
          if (!listed.has(sessionId) && this.sessionMatches(sessionId, q)) rows.push(this.summary(sessionId)!);
        }
      }
      return rows.filter(ofStatus).sort(newestActivityFirst).slice(0, limit);
    }
    const kind = leadListPaths[url.pathname];
    if (kind) {
      const rows = (answer as Lead[]).map((row) => this.updatedLeads.get(row.id) ?? row);
      const listed = new Set(rows.map((row) => row.id));
      if (firstPage) {
        for (const row of this.createdLeads.get(kind)?.values() ?? []) {
          const current = this.updatedLeads.get(row.id) ?? row;
          const matches = !q || leadSearchFields[kind].some((field) => contains((current as unknown as Record<string, unknown>)[field], q));
          if (!listed.has(row.id) && matches) rows.push(current);
        }
      }
      return rows.filter(ofStatus).sort(newestLeadFirst).slice(0, limit);
    }
    return answer;
  }

  /** `GET /api/leads/:kind/:id`: the lead as the lists and pushes left it, if the server has it. */
  lead(kind: LeadKind, id: number, scriptedRows: Lead[]): Lead | undefined {
    const row = scriptedRows.find((scripted) => scripted.id === id) ?? this.createdLeads.get(kind)?.get(id);
    return row ? (this.updatedLeads.get(id) ?? row) : undefined;
  }

  /** `GET /api/chat-sessions/:id`: the session's row as the list would show it, if the server has it. */
  session(sessionId: string): ChatSessionSummary | undefined {
    return this.summary(sessionId, this.scriptedSessions().find((row) => row.id === sessionId));
  }

  private storeMessage(message: StaffChatMessage): void {
    this.messages.set(message.id, message);
  }

  private storedSessionIds(): Set<string> {
    return new Set([...this.messages.values()].map((message) => message.sessionId));
  }

  private sessionMatches(sessionId: string, q: string): boolean {
    if (!q || contains(sessionId, q)) return true;
    return [...this.messages.values()].some(
      (message) => message.sessionId === sessionId && [message.message, message.senderEmail, message.senderName].some((field) => contains(field, q)),
    );
  }

  /** A session's row: the scripted one (if any) with the messages stored after it counted in. */
  private summary(sessionId: string, scripted?: ChatSessionSummary): ChatSessionSummary | undefined {
    const newer = [...this.messages.values()]
      .filter((message) => message.sessionId === sessionId && message.seq > (scripted?.lastMessageSeq ?? 0))
      .sort((a, b) => a.seq - b.seq);
    const first = newer[0];
    if (!scripted && !first) return undefined;
    const readUpTo = this.readUpTo.get(sessionId);
    let row: ChatSessionSummary = scripted ?? {
      ...chatSession({ id: sessionId, hasCustomerMessage: false, messageCount: 0, lastMessageId: 0, lastMessageSeq: 0, unreadCount: 0, pageUrl: null }),
      lastActivity: first!.createdAt,
      createdAt: first!.createdAt,
    };
    if (readUpTo !== undefined && readUpTo >= row.lastMessageSeq) row = { ...row, unreadCount: 0 };
    for (const message of newer) {
      row = {
        ...row,
        senderEmail: message.senderEmail ?? row.senderEmail,
        senderName: message.isFromUser && message.senderName ? message.senderName : row.senderName,
        hasCustomerMessage: row.hasCustomerMessage || message.isFromUser,
        lastMessage: message.message,
        lastMessageId: message.id,
        lastMessageSeq: message.seq,
        lastActivity: message.createdAt > row.lastActivity ? message.createdAt : row.lastActivity,
        messageCount: row.messageCount + 1,
        unreadCount: row.unreadCount + Number(message.isFromUser && (readUpTo === undefined || message.seq > readUpTo)),
        // A visitor writing again reopens the conversation.
        status: message.isFromUser ? 'open' : row.status,
      };
    }
    return row;
  }

  /** `POST /api/chat-sessions/resync`: the rows whose version is not the one held (or not held at all), of those the list would show. */
  resync(body: unknown): { sessions: ChatSessionSummary[] } {
    const held = new Map(((body as { known?: { id: string; version: number }[] } | undefined)?.known ?? []).map((row) => [row.id, row.version]));
    const rows = this.completeRead(new URL('/api/chat-sessions?limit=500', 'http://localhost'), this.scriptedSessions()) as ChatSessionSummary[];
    return { sessions: rows.filter((row) => held.get(row.id) !== row.version) };
  }
}

let current: StoredData | undefined;

/** The fake socket's pushes: the server stored what it pushes. */
export function recordServerPush(event: string, payload: unknown): void {
  current?.recordPush(event, payload);
}

/**
 * Stands in for the HTTP API at the fetch boundary, for component tests only (the real endpoints
 * are proven by the server tests and the browser tests). Unlisted staff paths answer like an empty
 * database, plus what the server's pushes announced since (see StoredData); one lead's path answers
 * the lead a scripted list or a push holds, else 404.
 */
export function fakeServer(options: { admin?: string | null; staffIdleMinutes?: number } = {}): FakeServer {
  const routes = new Map<string, Handler>();
  const calls: string[] = [];
  const bodies: { call: string; body: unknown }[] = [];
  const session = (): SessionInfo => ({
    admin: options.admin ? { email: options.admin, role: 'admin', displayName: staffDisplayName({ email: options.admin, displayName: null }) } : null,
    dealer: null,
    staffIdleMinutes: options.staffIdleMinutes ?? 10,
  });
  const defaults: Record<string, unknown> = {
    'GET /api/admin/counts': emptyCounts(),
    'GET /api/contact-submissions': [],
    'GET /api/support-tickets': [],
    'GET /api/demo-requests': [],
    'GET /api/get-started-requests': [],
    'GET /api/chat-sessions': [],
    // Assignment: the signed-in staff member is the only one, an admin, with auto-assignment off.
    'GET /api/assignees': { me: 1, staff: [{ id: 1, name: options.admin ? staffDisplayName({ email: options.admin, displayName: null }) : 'staff', role: 'admin', online: true }] },
    'GET /api/settings/auto-assignment': { enabled: false, capacity: 5 },
  };
  const scriptedSessions = (): ChatSessionSummary[] => {
    const url = new URL('/api/chat-sessions', 'http://localhost');
    const answer = routes.get('GET /api/chat-sessions')?.({ url, method: 'GET', body: undefined }) ?? { body: defaults['GET /api/chat-sessions'] };
    return Array.isArray(answer.body) ? (answer.body as ChatSessionSummary[]) : [];
  };
  const stored = new StoredData(scriptedSessions);
  const scriptedLeads = (kind: LeadKind): Lead[] => {
    const path = Object.keys(leadListPaths).find((list) => leadListPaths[list] === kind)!;
    const answer = routes.get(`GET ${path}`)?.({ url: new URL(path, 'http://localhost'), method: 'GET', body: undefined });
    return Array.isArray(answer?.body) ? (answer.body as Lead[]) : [];
  };
  current = stored;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const method = init?.method ?? 'GET';
      const key = `${method} ${url.pathname}`;
      calls.push(`${method} ${url.pathname}${url.search}`);
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      bodies.push({ call: key, body });
      const handled = routes.get(key)?.({ url, method, body }) ?? (key === 'POST /api/chat-sessions/resync' ? { body: stored.resync(body) } : undefined);
      const sessionRead = method === 'GET' && /^\/api\/chat-sessions\/([^/]+)$/.exec(url.pathname);
      const storedSession = sessionRead ? stored.session(decodeURIComponent(sessionRead[1]!)) : undefined;
      const contextRead = method === 'GET' && /^\/api\/chat-sessions\/([^/]+)\/context$/.exec(url.pathname);
      const contextSession = contextRead ? stored.session(decodeURIComponent(contextRead[1]!)) : undefined;
      const leadRead = method === 'GET' && /^\/api\/leads\/(contact|support|demo|get-started)\/(\d+)$/.exec(url.pathname);
      const leadKind = leadRead ? (leadRead[1] as LeadKind) : undefined;
      const storedLead = leadRead && leadKind ? stored.lead(leadKind, Number(leadRead[2]), scriptedLeads(leadKind)) : undefined;
      const answer =
        handled ??
        (key === 'GET /api/session'
          ? { body: session() }
          : key in defaults
            ? { body: defaults[key] }
            : storedSession
              ? { body: storedSession }
              : contextSession
                ? { body: chatContext({ sessionId: contextSession.id, pageUrl: contextSession.pageUrl }) }
              : storedLead
                ? { body: storedLead }
                : leadRead
                  ? { status: 404, body: { message: 'Lead not found' } }
                  : { status: 404, body: { message: 'Not found' } });
      const status = answer.status ?? 200;
      if (status < 300 && method === 'GET') answer.body = stored.completeRead(url, answer.body);
      if (status < 300) stored.recordAnswer(method, url, body, answer.body);
      return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return { calls, bodies, on: (route, handler) => routes.set(route, handler) };
}
