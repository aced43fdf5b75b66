import { act, fireEvent, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { useToastStore } from '../../../components/ui/toast';
import { connectAdminSocket } from '../api/admin-socket';
import { resetInbox } from '../inbox-store';
import { resetStaffSession } from '../session-store';
import { FakeAdminSocket } from './fake-socket';

/**
 * A dashboard test's fresh start, at the fake clock's noon: empty stores and toasts, and a new fake
 * staff socket handed to the dashboard. The test file mocks `./api/admin-socket` (`connectAdminSocket: vi.fn()`).
 */
export function freshDashboard(): FakeAdminSocket {
  vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00.000Z') });
  const socket = new FakeAdminSocket();
  vi.mocked(connectAdminSocket).mockImplementation(() => socket.asSocket());
  resetStaffSession();
  resetInbox();
  useToastStore.setState({ toasts: [] });
  return socket;
}

/** Lets pending fetches resolve and timers due within `ms` run, inside React's act. */
export async function advance(ms = 0): Promise<void> {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** The dashboard's Chat Messages tab. */
export function chatTab(): HTMLElement {
  return screen.getByRole('tab', { name: /Chat Messages/ });
}

export async function openChatTab(): Promise<void> {
  // Radix tabs switch on mousedown.
  fireEvent.mouseDown(chatTab());
  await advance();
}
