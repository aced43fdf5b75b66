import { vi } from 'vitest';
import type { SessionInfo } from '../../../../api/contract/auth';
import type { ChatSessionSummary } from '../../../../api/contract/chat';
import type { AdminCounts, ContactSubmission, GetStartedRequest, SupportTicket } from '../../../../api/contract/leads';

type Handler = (request: { url: URL; method: string; body: unknown }) => { status?: number; body?: unknown } | undefined;

export interface FakeServer {
  /** Every request the page made, as `METHOD /path?query`. */
  calls: string[];
  bodies: { call: string; body: unknown }[];
  on(route: string, handler: Handler): void;
}

/**
 * Stands in for the HTTP API at the fetch boundary, for component tests only (the real endpoints
 * are proven by the server tests and the browser tests). Unlisted staff paths answer like an empty database.
 */
export function fakeServer(options: { admin?: string | null; staffIdleMinutes?: number } = {}): FakeServer {
  const routes = new Map<string, Handler>();
  const calls: string[] = [];
  const bodies: { call: string; body: unknown }[] = [];
  const session = (): SessionInfo => ({
    admin: options.admin ? { email: options.admin } : null,
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
  };
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      const method = init?.method ?? 'GET';
      const key = `${method} ${url.pathname}`;
      calls.push(`${method} ${url.pathname}${url.search}`);
      const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
      bodies.push({ call: key, body });
      const handled = routes.get(key)?.({ url, method, body });
      const answer = handled ?? (key === 'GET /api/session' ? { body: session() } : key in defaults ? { body: defaults[key] } : { status: 404, body: { message: 'Not found' } });
      const status = answer.status ?? 200;
      return new Response(answer.body === undefined ? '' : JSON.stringify(answer.body), {
        status,
        headers: { 'content-type': 'application/json' },
      });
    }),
  );
  return { calls, bodies, on: (route, handler) => routes.set(route, handler) };
}

export function emptyCounts(overrides: Partial<AdminCounts> = {}): AdminCounts {
  return { contact: 0, support: 0, demo: 0, getStarted: 0, chatSessions: 0, unreadChats: 0, ...overrides };
}

let nextId = 1;
const meta = (createdAt: string) => ({ id: nextId++, status: 'new' as const, note: '', createdAt, updatedAt: createdAt });

export function contactRow(overrides: Partial<ContactSubmission> = {}): ContactSubmission {
  return {
    ...meta('2026-11-20T15:30:00.000Z'),
    name: 'Jane Doe',
    email: 'jane@dealer.example',
    company: 'Doe Motors',
    phone: '5125550100',
    subject: 'pricing',
    message: 'How much for 80 cars?',
    ...overrides,
  };
}

export function ticketRow(overrides: Partial<SupportTicket> = {}): SupportTicket {
  return {
    ...meta('2026-11-20T16:00:00.000Z'),
    name: 'Sam Support',
    email: 'sam@dealer.example',
    company: 'Sam Autos',
    priority: 'high',
    category: 'billing',
    subject: 'Invoice is wrong',
    description: 'The November invoice lists 120 cars.',
    ...overrides,
  };
}

export function getStartedRow(overrides: Partial<GetStartedRequest> = {}): GetStartedRequest {
  return {
    ...meta('2026-11-19T09:05:00.000Z'),
    firstName: 'Ava',
    lastName: 'Stone',
    email: 'ava@stone.example',
    phone: '5125550111',
    dealershipName: 'Stone Pre-Owned',
    address: '100 Main Street',
    city: 'Austin',
    state: 'TX',
    zipCode: '78701',
    inventorySize: '50-99',
    launchDate: 'asap',
    currentWebsite: null,
    primaryGoals: ['Increase online leads'],
    currentWebsiteProvider: null,
    currentStickerPhotoCompany: null,
    currentFeedProvider: null,
    feedExportDestinations: [],
    additionalFeedDestinations: null,
    additionalInfo: null,
    allowMarketing: false,
    ...overrides,
  };
}

export function chatSession(overrides: Partial<ChatSessionSummary> = {}): ChatSessionSummary {
  return {
    id: 'session_1732200000000_abcdef',
    senderName: null,
    senderEmail: null,
    hasCustomerMessage: true,
    lastMessage: 'Do you integrate with CarGurus?',
    messageCount: 1,
    lastMessageId: 1,
    lastActivity: '2026-11-21T10:00:00.000Z',
    unreadCount: 1,
    status: 'open',
    pageUrl: 'http://localhost/pricing',
    referrer: null,
    userAgent: null,
    createdAt: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}
