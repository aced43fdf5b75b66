import { act, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';
import { Toaster } from '../../../components/ui/toast';
import { AdminRoute } from './admin-route';
import { advance, freshDashboard } from './dashboard';
import { chatSession, contactRow, emptyCounts, fakeServer, type FakeServer } from './fake-server';
import type { FakeAdminSocket } from './fake-socket';

/** The one conversation the live dashboard lists at first. */
export const liveSessionId = 'session_1732200000000_abcdef';

export interface LiveDashboard {
  socket: FakeAdminSocket;
  server: FakeServer;
  /** Runs a push from the server as the socket would deliver it. */
  push(event: string, ...args: unknown[]): void;
}

/**
 * The dashboard the live-update tests start from, fresh for each test: one contact lead, one read
 * conversation, a fake socket and server. The test file still mocks `./api/admin-socket` itself
 * (vi.mock is hoisted per file).
 */
export function liveDashboard(): LiveDashboard {
  const live = {
    push: (event: string, ...args: unknown[]) => act(() => live.socket.serverPush(event, ...args)),
  } as LiveDashboard;
  beforeEach(() => {
    live.socket = freshDashboard();
    live.server = fakeServer({ admin: 'staff@lotwise.example' });
    live.server.on('GET /api/admin/counts', () => ({ body: emptyCounts({ contact: 1, support: 1, chatSessions: 1, unreadChats: 0 }) }));
    live.server.on('GET /api/contact-submissions', () => ({ body: [contactRow({ id: 1, name: 'Older Lead' })] }));
    live.server.on('GET /api/chat-sessions', () => ({
      body: [chatSession({ id: liveSessionId, unreadCount: 0, lastActivity: '2026-11-21T11:00:00.000Z', senderEmail: 'buyer@lot.example' })],
    }));
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });
  return live;
}

export async function renderDashboard(): Promise<void> {
  render(
    <>
      <AdminRoute />
      <Toaster />
    </>,
  );
  await advance();
}

/** A chat row's Messages figure. */
export function messageCountShown(): string | null {
  return within(within(screen.getByRole('table', { name: 'Chat Messages' })).getAllByRole('row')[1]!).getAllByRole('cell')[3]!.textContent;
}
