import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { Toaster } from '../components/ui/toast';
import { useToastStore } from '../components/ui/toast-store';
// Loaded up front so the lazily mounted region appears at once in tests, as it does after the first toast in the app.
import '../components/ui/toast-region';

/**
 * Renders a screen inside a memory router with the app's toast region, as the app mounts it: the
 * screen's route is `path`, opened at `url` (the path with a query, say) or at `path` itself.
 */
export function renderWithRouter(element: ReactElement, { path = '/', url = path, routes = [] }: { path?: string; url?: string; routes?: string[] } = {}) {
  useToastStore.setState({ toasts: [] });
  const router = createMemoryRouter(
    [{ path, element }, ...routes.map((route) => ({ path: route, element: <p>Arrived at {route}</p> }))],
    { initialEntries: [url] },
  );
  const user = userEvent.setup({ delay: null });
  const view = render(
    <>
      <RouterProvider router={router} />
      <Toaster />
    </>,
  );
  return { ...view, user, router };
}

export interface FetchCall {
  url: string;
  method: string;
  body: unknown;
  headers: Record<string, string>;
  credentials: RequestCredentials | undefined;
}

/**
 * Stubs the browser's network (fetch) with answers the test releases by hand, so a test can look
 * at the form while the request is pending. Our own code is never mocked.
 */
export function stubNetwork() {
  const calls: FetchCall[] = [];
  const pending: { resolve(response: Response): void; reject(error: unknown): void }[] = [];
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    calls.push({
      url: input instanceof Request ? input.url : input.toString(),
      method: init?.method ?? 'GET',
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      headers: (init?.headers ?? {}) as Record<string, string>,
      credentials: init?.credentials,
    });
    return new Promise<Response>((resolve, reject) => pending.push({ resolve, reject }));
  });
  vi.stubGlobal('fetch', fetchMock);
  const next = () => {
    const waiting = pending.shift();
    if (!waiting) throw new Error('no request is pending');
    return waiting;
  };
  return {
    calls,
    /** Answers the oldest pending request. */
    respond(status: number, body: unknown = {}) {
      next().resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
    },
    /** Fails the oldest pending request as a network error does. */
    fail() {
      next().reject(new TypeError('Failed to fetch'));
    },
  };
}
