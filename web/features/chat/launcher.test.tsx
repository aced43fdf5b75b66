import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChatLauncher, openChat } from '.';

// The launcher's job is when and where the widget appears; the socket side is not under test here.
vi.mock('./transport', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./transport')>()),
  socketTransport: () => ({
    start() {},
    stop() {},
    isConnected: () => false,
    join: async () => [],
    send: async () => {
      throw new Error('offline');
    },
    typing() {},
  }),
}));

async function settle(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
    await vi.dynamicImportSettled();
  });
}

// Transforming the widget's chunk takes real time in the test runner; warm it so fake timers decide.
beforeAll(async () => {
  await import('./components/chat-widget');
});

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
  vi.stubGlobal('fetch', vi.fn(async () => new Response('{"messages":[],"session":null}', { status: 200 })));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('chat launcher', () => {
  it('shows the chat button only after 2 seconds', async () => {
    render(<ChatLauncher pathname="/" />);
    await settle(1900);
    expect(screen.queryByRole('button', { name: 'Open chat' })).not.toBeInTheDocument();
    await settle(200);
    expect(screen.getByRole('button', { name: 'Open chat' })).toBeInTheDocument();
  });

  it('never shows it on the staff or dealer dashboards', async () => {
    const { rerender } = render(<ChatLauncher pathname="/admin" />);
    await settle(3000);
    expect(screen.queryByRole('button', { name: 'Open chat' })).not.toBeInTheDocument();
    rerender(<ChatLauncher pathname="/dealer-dashboard" />);
    await settle(3000);
    expect(screen.queryByRole('button', { name: 'Open chat' })).not.toBeInTheDocument();
    rerender(<ChatLauncher pathname="/support" />);
    await settle(0);
    expect(screen.getByRole('button', { name: 'Open chat' })).toBeInTheDocument();
  });

  it('openChat() opens the panel at once, before the 2 s delay', async () => {
    render(<ChatLauncher pathname="/support" />);
    act(() => openChat());
    await settle(0);
    await settle(0);
    expect(screen.getByRole('dialog', { name: 'Chat With Us' })).toBeInTheDocument();
  });

  it('a request made on a dashboard opens the panel on the next public page, and only then', async () => {
    const { rerender } = render(<ChatLauncher pathname="/admin" />);
    act(() => openChat());
    await settle(3000);
    expect(screen.queryByRole('dialog', { name: 'Chat With Us' })).not.toBeInTheDocument();
    rerender(<ChatLauncher pathname="/support" />);
    await settle(0);
    expect(screen.getByRole('dialog', { name: 'Chat With Us' })).toBeInTheDocument();

    // Closed, then a trip through a dashboard: the old request does not open it again.
    fireEvent.click(screen.getByRole('button', { name: 'Close chat' }));
    rerender(<ChatLauncher pathname="/dealer-dashboard" />);
    await settle(0);
    rerender(<ChatLauncher pathname="/" />);
    await settle(0);
    expect(screen.getByRole('button', { name: 'Open chat' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Chat With Us' })).not.toBeInTheDocument();
  });
});
