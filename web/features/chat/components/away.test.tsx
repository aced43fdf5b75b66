import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatOpening } from '../../../../api/contract/business-hours';
import { FakeTransport } from '../test/fake-transport';
import { ChatWidget } from './chat-widget';

// Tuesday November 24, 2026, 10 AM in Chicago: open. Sunday November 22, noon in Chicago: closed until Monday 8 AM.
const tuesdayMorning = new Date('2026-11-24T16:00:00Z');
const sunday = new Date('2026-11-22T18:00:00Z');
const mondayOpening = new Date('2026-11-23T14:00:00Z');

const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

async function advance(ms: number) {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
}

/** The widget at `now`, connected, with staff presence as given, and its panel open. */
async function openWidgetAt(now: Date, staffOnline: boolean | null) {
  vi.setSystemTime(now);
  const transport = new FakeTransport();
  render(<ChatWidget transport={transport} />);
  await advance(0);
  transport.connect();
  if (staffOnline !== null) await act(async () => transport.handlers.onPresence(staffOnline));
  fireEvent.click(screen.getByRole('button', { name: /^Open chat/ }));
  await advance(0);
  return transport;
}

const nameField = () => screen.getByRole('textbox', { name: 'Name' });
const emailField = () => screen.getByRole('textbox', { name: 'Email' });
const messageField = () => screen.getByRole('textbox', { name: 'Message' });

function fillForm(fields: { name: string; email: string; message: string }) {
  fireEvent.change(nameField(), { target: { value: fields.name } });
  fireEvent.change(emailField(), { target: { value: fields.email } });
  fireEvent.change(messageField(), { target: { value: fields.message } });
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  vi.stubGlobal(
    'fetch',
    vi.fn<typeof fetch>(async () => jsonResponse({ message: 'Chat session not found' }, 404)),
  );
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the widget header says which case holds', () => {
  it('staff online: "Online now" and the live chat', async () => {
    await openWidgetAt(tuesdayMorning, true);
    expect(screen.getByText('Online now')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send message' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Name' })).not.toBeInTheDocument();
  });

  it('staff online outside the hours: still "Online now" and the live chat, for whoever is there answers', async () => {
    await openWidgetAt(sunday, true);
    expect(screen.getByText('Online now')).toBeInTheDocument();
    expect(screen.queryByText(/We're away/)).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Name' })).not.toBeInTheDocument();
  });

  it('open with nobody online: "We usually reply within a few minutes" and the leave-a-message form', async () => {
    await openWidgetAt(tuesdayMorning, false);
    expect(screen.getByText('We usually reply within a few minutes')).toBeInTheDocument();
    expect(screen.getByText(/Leave us a message and we'll reply by email/)).toBeInTheDocument();
    expect(nameField()).toBeInTheDocument();
    expect(emailField()).toBeInTheDocument();
  });

  it('closed: "We\'re away. Back ..." the next opening on the visitor\'s own clock, and the form, before presence is known', async () => {
    await openWidgetAt(sunday, null);
    expect(screen.getByText(`We're away. Back ${formatOpening(mondayOpening, sunday)}`)).toBeInTheDocument();
    expect(nameField()).toBeInTheDocument();
  });

  it('turns from away to open when the hours open, with the panel left open', async () => {
    await openWidgetAt(new Date(mondayOpening.getTime() - 30_000), false);
    expect(screen.getByText(/We're away\. Back today at/)).toBeInTheDocument();
    await advance(30_000);
    expect(screen.getByText('We usually reply within a few minutes')).toBeInTheDocument();
  });
});

describe('leave a message', () => {
  it('says what is wrong with each field, moves focus to the first, and sends nothing', async () => {
    const transport = await openWidgetAt(tuesdayMorning, false);
    fireEvent.change(emailField(), { target: { value: 'not-an-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(screen.getByText('Please enter your name')).toBeInTheDocument();
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    expect(screen.getByText('Message cannot be empty')).toBeInTheDocument();
    expect(nameField()).toHaveAttribute('aria-invalid', 'true');
    expect(nameField()).toHaveAccessibleDescription('Please enter your name');
    expect(document.activeElement).toBe(nameField());
    expect(transport.sent).toHaveLength(0);

    // Changing a field clears its error at once; the next try checks again.
    fireEvent.change(nameField(), { target: { value: 'Pat' } });
    expect(screen.queryByText('Please enter your name')).not.toBeInTheDocument();
    expect(nameField()).not.toHaveAttribute('aria-invalid');
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    expect(screen.queryByText('Please enter your name')).not.toBeInTheDocument();
    expect(document.activeElement).toBe(emailField());
  });

  it('while open: sends the message with name and email, shows the conversation and when a reply comes; the visitor writes on', async () => {
    const transport = await openWidgetAt(tuesdayMorning, false);
    fillForm({ name: ' Pat ', email: 'pat@dealer.example', message: 'Do you integrate with DealerCenter?' });
    act(() => messageField().focus());
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await advance(0);

    expect(transport.sent).toHaveLength(1);
    expect(transport.sent[0]).toMatchObject({ message: 'Do you integrate with DealerCenter?', senderName: 'Pat', senderEmail: 'pat@dealer.example' });
    expect(screen.getByText('Do you integrate with DealerCenter?')).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent("Thanks, Pat. We'll reply within a few minutes, here and by email to pat@dealer.example.");
    expect(screen.queryByRole('textbox', { name: 'Name' })).not.toBeInTheDocument();

    // The composer takes over, focused, for the visitor to write on.
    const composer = screen.getByRole('textbox', { name: 'Message' });
    expect(document.activeElement).toBe(composer);
    fireEvent.change(composer, { target: { value: 'Also, trade-in tools?' } });
    fireEvent.keyDown(composer, { key: 'Enter' });
    await advance(0);
    expect(transport.sent[1]).toMatchObject({ message: 'Also, trade-in tools?', senderName: 'Pat', senderEmail: 'pat@dealer.example' });
  });

  it('while closed: tells the visitor when we are back and which address the reply goes to', async () => {
    const transport = await openWidgetAt(sunday, false);
    fillForm({ name: 'Pat', email: 'pat@dealer.example', message: 'Call me Monday' });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await advance(0);
    expect(transport.sent).toHaveLength(1);
    expect(screen.getByRole('status')).toHaveTextContent(`Thanks, Pat. We're back ${formatOpening(mondayOpening, sunday)}; we'll reply to pat@dealer.example then.`);
  });

  it('shows no thanks for a message that could not go yet, and its Retry', async () => {
    const transport = await openWidgetAt(tuesdayMorning, false);
    transport.sendResult = () => Promise.reject(new Error('socket gone'));
    vi.mocked(fetch).mockRejectedValue(new TypeError('Failed to fetch'));
    fillForm({ name: 'Pat', email: 'pat@dealer.example', message: 'Hello?' });
    fireEvent.click(screen.getByRole('button', { name: 'Send message' }));
    await advance(0);
    expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('keeps what was typed when staff come online and the live chat takes the form\'s place', async () => {
    const transport = await openWidgetAt(tuesdayMorning, false);
    fillForm({ name: 'Pat', email: 'pat@dealer.example', message: 'Half a question' });
    await act(async () => transport.handlers.onPresence(true));
    expect(screen.getByText('Online now')).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Name' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('Half a question');

    // And back again: still there.
    await act(async () => transport.handlers.onPresence(false));
    expect(messageField()).toHaveValue('Half a question');
    expect(nameField()).toHaveValue('Pat');
  });
});
