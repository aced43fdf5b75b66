import type { ChatSessionContext, ChatSessionSummary, StaffChatMessage } from '../../../../api/contract/chat';
import type { AdminCounts, ContactSubmission, DemoRequest, GetStartedRequest, LeadKind, SupportTicket } from '../../../../api/contract/leads';
import { leadReference } from '../../../../api/contract/after-submit';

/** The dashboard's rows as the server answers them, each with what a test overrides. */

export function emptyCounts(overrides: Partial<AdminCounts> = {}): AdminCounts {
  const none = { new: 0, contacted: 0, closed: 0 };
  return {
    contact: 0,
    support: 0,
    demo: 0,
    getStarted: 0,
    chatSessions: 0,
    unreadChats: 0,
    byStatus: { contact: none, support: none, demo: none, getStarted: none, chatSessions: { open: 0, resolved: 0 } },
    ...overrides,
  };
}

let nextId = 1;
const meta = (createdAt: string, kind: LeadKind) => {
  const id = nextId++;
  return { id, reference: leadReference(kind, id), status: 'new' as const, note: '', createdAt, updatedAt: createdAt };
};

export function contactRow(overrides: Partial<ContactSubmission> = {}): ContactSubmission {
  return {
    ...meta('2026-11-20T15:30:00.000Z', 'contact'),
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
    ...meta('2026-11-20T16:00:00.000Z', 'support'),
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

export function demoRow(overrides: Partial<DemoRequest> = {}): DemoRequest {
  return {
    ...meta('2026-11-20T17:45:00.000Z', 'demo'),
    name: 'Dee Demo',
    email: 'dee@demo-cars.example',
    company: 'Demo Cars',
    phone: null,
    message: null,
    ...overrides,
  };
}

export function getStartedRow(overrides: Partial<GetStartedRequest> = {}): GetStartedRequest {
  return {
    ...meta('2026-11-19T09:05:00.000Z', 'get-started'),
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
    plan: null,
    ...overrides,
  };
}

/** A visitor's context as `GET /api/chat-sessions/:id/context` answers it: by default, nothing more than the page. */
export function chatContext(overrides: Partial<ChatSessionContext> = {}): ChatSessionContext {
  return {
    sessionId: 'session_1732200000000_abcdef',
    pageUrl: 'http://localhost/pricing',
    referrer: null,
    userAgent: null,
    timeZone: null,
    pages: [],
    earlierConversations: [],
    leads: [],
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
    lastMessageSeq: 1,
    lastActivity: '2026-11-21T10:00:00.000Z',
    unreadCount: 1,
    visitorSeenSeq: 0,
    status: 'open',
    // A test that changes a row says so with a higher version, as the server counts each change.
    version: 0,
    pageUrl: 'http://localhost/pricing',
    referrer: null,
    userAgent: null,
    createdAt: '2026-11-21T10:00:00.000Z',
    ...overrides,
  };
}

let nextMessageId = 100;

/**
 * A stored chat message as staff get it, by default a visitor's on the session of `chatSession()`, each with
 * the next id (its seq too: gaps are fine); `isFromUser: false` makes it a staff reply of no known author.
 */
export function chatMessage(overrides: Partial<StaffChatMessage> = {}): StaffChatMessage {
  const id = nextMessageId++;
  return {
    id,
    seq: id,
    sessionId: 'session_1732200000000_abcdef',
    message: 'Hello, is anyone there?',
    senderEmail: null,
    senderName: null,
    isFromUser: true,
    clientId: null,
    createdAt: new Date().toISOString(),
    kind: overrides.isFromUser === false ? 'staff' : 'visitor',
    authorStaffId: null,
    authorName: null,
    ...overrides,
  };
}
