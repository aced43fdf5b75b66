import { fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreatedWebhook, DeadJob, Webhook, WebhookDelivery } from '../../../../api/contract/admin-operations';
import { AdminRoute } from '../test/admin-route';
import { advance, freshDashboard } from '../test/dashboard';
import { fakeServer, type FakeServer } from '../test/fake-server';
// Loaded ahead, so the lazy screen resolves without a real wait under fake timers.
import './operations-page';

vi.mock('../api/admin-socket', async (importOriginal) => {
  const original = await importOriginal<typeof import('../api/admin-socket')>();
  return { ...original, connectAdminSocket: vi.fn() };
});

beforeEach(() => {
  freshDashboard();
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function openAt(address: string): Promise<void> {
  render(<AdminRoute at={address} />);
  for (let turn = 0; turn < 5; turn += 1) await advance();
}

async function settle(): Promise<void> {
  for (let turn = 0; turn < 3; turn += 1) await advance();
}

describe('/admin/webhooks', () => {
  let server: FakeServer;
  const healthy = { failingSince: null, pausedUntil: null, failures: 0, lastFailure: null };
  const webhook: Webhook = { id: 7, url: 'https://crm.example.com/hooks', events: ['lead.created', 'chat.message'], createdAt: '2026-11-21T11:00:00.000Z', receiver: healthy };
  const delivery: WebhookDelivery = {
    id: 'dlv_1',
    eventId: 'evt_1',
    eventType: 'webhook.test',
    eventAt: '2026-11-21T12:00:00.000Z',
    deliveredAt: '2026-11-21T12:00:02.000Z',
    attempts: [
      { at: '2026-11-21T12:00:00.000Z', statusCode: 500, error: null, durationMs: 31 },
      { at: '2026-11-21T12:00:02.000Z', statusCode: 200, error: null, durationMs: 12 },
    ],
  };

  beforeEach(() => {
    server = fakeServer({ admin: 'admin@lotwise.example' });
  });

  it('subscribes a URL to the chosen events, shows its secret once, sends a test event and lists the attempts', async () => {
    let stored: Webhook[] = [];
    server.on('GET /api/admin/webhooks', () => ({ body: stored }));
    server.on('POST /api/admin/webhooks', () => {
      stored = [webhook];
      return { status: 201, body: { ...webhook, secret: 'whsec_shown_once' } satisfies CreatedWebhook };
    });
    server.on('POST /api/admin/webhooks/7/test', () => ({ status: 202, body: { deliveryId: 'dlv_1' } }));
    server.on('GET /api/admin/webhooks/7/deliveries', () => ({ body: [delivery] }));
    await openAt('/admin/webhooks');
    expect(screen.getByRole('heading', { name: 'Webhooks' })).toBeInTheDocument();
    expect(screen.getByText('No subscriptions yet.')).toBeInTheDocument();

    fireEvent.change(screen.getByLabelText('Receiver URL'), { target: { value: ' https://crm.example.com/hooks ' } });
    fireEvent.click(screen.getByLabelText('chat.message'));
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await settle();
    expect(server.bodies.find((call) => call.call === 'POST /api/admin/webhooks')?.body).toEqual({ url: 'https://crm.example.com/hooks', events: ['lead.created', 'chat.message'] });
    expect(screen.getByTestId('webhook-secret')).toHaveTextContent('whsec_shown_once');
    const item = screen.getByText('https://crm.example.com/hooks').closest('li')!;
    expect(within(item).getByText('lead.created, chat.message')).toBeInTheDocument();

    fireEvent.click(within(item).getByRole('button', { name: 'Send test event' }));
    await settle();
    expect(server.calls).toContain('POST /api/admin/webhooks/7/test');
    const deliveries = within(item).getByRole('region', { name: /Deliveries to/ });
    expect(within(deliveries).getByText(/webhook\.test .* delivered/)).toBeInTheDocument();
    expect(within(deliveries).getByText(/500 \(31 ms\)/)).toBeInTheDocument();
    expect(within(deliveries).getByText(/200 \(12 ms\)/)).toBeInTheDocument();
  });

  it('shows a failing receiver: since when, the last failure, and until when its deliveries are paused', async () => {
    const pausedUntil = new Date(Date.now() + 10 * 60_000).toISOString();
    const failing: Webhook = { ...webhook, receiver: { failingSince: '2026-11-21T11:30:00.000Z', pausedUntil, failures: 4, lastFailure: 'timeout' } };
    server.on('GET /api/admin/webhooks', () => ({ body: [failing, { ...webhook, id: 8, url: 'https://ok.example.com/hooks' }] }));
    await openAt('/admin/webhooks');
    const item = screen.getByText('https://crm.example.com/hooks').closest('li')!;
    const state = within(item).getByRole('status');
    expect(state).toHaveTextContent(/Failing since .*\(4 in a row, last: timeout\)/);
    expect(state).toHaveTextContent('deliveries paused until');
    const ok = screen.getByText('https://ok.example.com/hooks').closest('li')!;
    expect(within(ok).queryByRole('status')).toBeNull();
  });

  it("shows the server's refusal of a private address, and stores nothing", async () => {
    server.on('GET /api/admin/webhooks', () => ({ body: [] }));
    server.on('POST /api/admin/webhooks', () => ({ status: 400, body: { message: '10.0.0.5 is a private, loopback or link-local address; webhooks go to public addresses only' } }));
    await openAt('/admin/webhooks');
    fireEvent.change(screen.getByLabelText('Receiver URL'), { target: { value: 'https://10.0.0.5/hook' } });
    fireEvent.click(screen.getByRole('button', { name: 'Subscribe' }));
    await settle();
    expect(screen.getByRole('alert')).toHaveTextContent('10.0.0.5 is a private, loopback or link-local address');
    expect(screen.queryByTestId('webhook-secret')).toBeNull();
  });

  it('tells an agent the screen is for admins', async () => {
    server.on('GET /api/admin/webhooks', () => ({ status: 403, body: { message: 'Admins only' } }));
    await openAt('/admin/webhooks');
    expect(screen.getByRole('alert')).toHaveTextContent('Only admins can use this screen.');
  });
});

describe('/admin/data', () => {
  it('checks the email, exports as a JSON file, and erases only when asked twice', async () => {
    const server = fakeServer({ admin: 'admin@lotwise.example' });
    server.on('POST /api/admin/data-requests/export', () => ({
      body: { email: 'erin@example.com', exportedAt: '2026-11-21T12:00:00.000Z', tables: { contactSubmissions: [{ id: 1 }], chatMessages: [{ id: 1 }, { id: 2 }] }, outbox: [{ file: 'a.eml', content: '' }] },
    }));
    server.on('POST /api/admin/data-requests/erase', () => ({ body: { email: 'erin@example.com', erased: { contactSubmissions: 1, chatMessages: 2 } } }));
    const createObjectURL = vi.fn(() => 'blob:export');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const downloads: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      downloads.push(this.download);
    });
    await openAt('/admin/data');

    const email = screen.getByLabelText('Email of the person asking');
    fireEvent.change(email, { target: { value: 'not an email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export as JSON' }));
    await settle();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls.filter((call) => call.includes('data-requests'))).toEqual([]);

    fireEvent.change(email, { target: { value: 'Erin@Example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Export as JSON' }));
    await settle();
    expect(server.bodies.find((call) => call.call === 'POST /api/admin/data-requests/export')?.body).toEqual({ email: 'Erin@Example.com' });
    expect(createObjectURL).toHaveBeenCalledTimes(1);
    expect(downloads).toEqual(['data-erin@example.com.json']);
    click.mockRestore();
    expect(screen.getByRole('status')).toHaveTextContent('Exported 3 rows and 1 mails for erin@example.com.');

    fireEvent.click(screen.getByRole('button', { name: 'Erase…' }));
    await settle();
    expect(server.calls.filter((call) => call.includes('erase'))).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Erase everything for Erin@Example.com' }));
    await settle();
    expect(server.calls).toContain('POST /api/admin/data-requests/erase');
    expect(screen.getByRole('status')).toHaveTextContent('Erased for erin@example.com: contactSubmissions: 1, chatMessages: 2.');
  });
});

describe('/admin/jobs', () => {
  it('lists the dead jobs with their errors and retries one', async () => {
    const server = fakeServer({ admin: 'admin@lotwise.example' });
    let dead: DeadJob[] = [{ id: 42, kind: 'webhook-delivery', error: 'Error: the receiver answered 503', attempts: 17, diedAt: '2026-11-21T11:00:00.000Z', createdAt: '2026-11-20T11:00:00.000Z' }];
    server.on('GET /api/admin/jobs/dead', () => ({ body: dead }));
    server.on('POST /api/admin/jobs/42/retry', () => {
      dead = [];
      return { body: { ok: true } };
    });
    await openAt('/admin/jobs');
    expect(screen.getByText('Error: the receiver answered 503')).toBeInTheDocument();
    expect(screen.getByText(/17 attempts/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Retry webhook-delivery #42' }));
    await settle();
    expect(server.calls).toContain('POST /api/admin/jobs/42/retry');
    expect(screen.getByText(/No dead jobs/)).toBeInTheDocument();
  });
});
