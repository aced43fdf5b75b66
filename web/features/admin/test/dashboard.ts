import { notifyManager } from '@tanstack/react-query';
import { act, fireEvent, screen } from '@testing-library/react';
import { vi } from 'vitest';
import { useToastStore } from '../../../components/ui/toast';
import { connectAdminSocket } from '../api/admin-socket';
import { useChatUi } from '../stores/chat-ui-store';
import { useListFilters } from '../stores/list-filters-store';
import { useAssigneeFilter } from '../stores/assignee-filter-store';
import { resetStaffSession } from '../session-store';
import { FakeAdminSocket } from './fake-socket';

/**
 * A dashboard test's fresh start, at the fake clock's noon: empty stores and toasts, and a new fake
 * staff socket handed to the dashboard. The test file mocks `./api/admin-socket` (`connectAdminSocket: vi.fn()`).
 */
export function freshDashboard(): FakeAdminSocket {
  vi.useFakeTimers({ now: new Date('2026-11-21T12:00:00.000Z') });
  // TanStack Query tells the screen of a cache change in a timeout; under fake timers, at once (as within act).
  notifyManager.setScheduler((notify) => notify());
  const socket = new FakeAdminSocket();
  vi.mocked(connectAdminSocket).mockImplementation(() => socket.asSocket());
  resetStaffSession();
  useListFilters.getState().reset();
  useAssigneeFilter.getState().reset();
  useChatUi.getState().reset();
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

/** A Web Audio stand-in that records into `tones` the frequency of every tone the page plays. */
export function fakeAudioContext(tones: number[]) {
  return class FakeAudioContext {
    state = 'running';
    currentTime = 0;
    destination = {};
    resume = vi.fn(async () => undefined);
    createGain() {
      return { connect() {}, gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} } };
    }
    createOscillator() {
      return { type: 'sine', frequency: { setValueAtTime: (hz: number) => tones.push(hz) }, connect() {}, start() {}, stop() {} };
    }
  };
}

export interface ShownNotification {
  title: string;
  body?: string;
  /** Notifications of one tag replace each other on screen. */
  tag?: string;
}

/**
 * A Notification stand-in, granted unless told otherwise, that records into `shown` every
 * notification the page makes, with or without the permission (so a test sees any made without).
 */
export function fakeNotification(shown: ShownNotification[], permission: NotificationPermission = 'granted') {
  return class FakeNotification {
    static permission = permission;
    static requestPermission = vi.fn(async () => permission);
    onclick: (() => void) | null = null;
    constructor(title: string, options?: { body?: string; tag?: string }) {
      shown.push({ title, body: options?.body, tag: options?.tag });
    }
    close() {}
  };
}

/** The open conversation's pane (View & Reply), named by its heading "Chat with ...". */
export function conversationPane(): HTMLElement {
  return screen.getByRole('region', { name: /^Chat with/ });
}

export function queryConversationPane(): HTMLElement | null {
  return screen.queryByRole('region', { name: /^Chat with/ });
}
