import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatRatingState } from '../../../../api/contract/chat-rating';
import { chatRow, FakeTransport } from '../test/fake-transport';
import { ChatWidget } from './chat-widget';
import { ratingQuestion, ratingThanks } from './rating-prompt';

const jsonResponse = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let sessionId = '';
let ratingState: ChatRatingState = { asked: false, rating: null };
const storedRating = (body: Record<string, unknown>) => jsonResponse({ rating: body.rating, comment: body.comment ?? null, ratedAt: new Date().toISOString() });
let ratingAnswer = storedRating;
let fetchMock: ReturnType<typeof vi.fn<typeof fetch>>;
const ratingPosts = () =>
  fetchMock.mock.calls.filter(([url, init]) => init?.method === 'POST' && String(url) === `/api/chat-rating/${sessionId}`).map(([, init]) => JSON.parse(String(init!.body)) as unknown);

async function settle() {
  await act(async () => {
    await vi.advanceTimersByTimeAsync(0);
  });
}

/** The widget of a visitor with one earlier exchange, connected, its panel open. */
async function openWidget(transport = new FakeTransport()) {
  render(<ChatWidget transport={transport} />);
  sessionId = localStorage.getItem('chatSessionId') ?? '';
  transport.history = [chatRow({ id: 1, sessionId, message: 'Do you do inventory feeds?' }), chatRow({ id: 2, sessionId, message: 'We do.', isFromUser: false })];
  transport.connect();
  await settle();
  fireEvent.click(screen.getByRole('button', { name: /^Open chat/ }));
  await settle();
  return transport;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
  ratingState = { asked: false, rating: null };
  ratingAnswer = storedRating;
  fetchMock = vi.fn<typeof fetch>(async (url, init) => {
    if (String(url).startsWith('/api/chat-rating/')) {
      return init?.method === 'POST' ? ratingAnswer(JSON.parse(String(init.body)) as Record<string, unknown>) : jsonResponse(ratingState);
    }
    return jsonResponse({ message: 'Chat session not found' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the rating prompt in the chat widget', () => {
  it('asks when the server says so, takes bad with a comment, and thanks the visitor', async () => {
    const transport = await openWidget();
    expect(screen.queryByText(ratingQuestion)).not.toBeInTheDocument();
    await act(async () => transport.askRating(sessionId));
    expect(screen.getByText(ratingQuestion)).toBeInTheDocument();
    // The comment box and the send button come with a choice.
    expect(screen.queryByRole('button', { name: 'Send rating' })).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Bad' }));
    expect(screen.getByRole('button', { name: 'Bad' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByRole('button', { name: 'Good' })).toHaveAttribute('aria-pressed', 'false');
    fireEvent.change(screen.getByLabelText('Anything to add? (optional)'), { target: { value: '  Slow to answer  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    await settle();

    expect(ratingPosts()).toEqual([{ rating: 'bad', comment: 'Slow to answer' }]);
    expect(screen.getByRole('status')).toHaveTextContent(ratingThanks('bad'));
    expect(screen.queryByText(ratingQuestion)).not.toBeInTheDocument();
  });

  it('sends good without a comment', async () => {
    const transport = await openWidget();
    await act(async () => transport.askRating(sessionId));
    fireEvent.click(screen.getByRole('button', { name: 'Good' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    await settle();
    expect(ratingPosts()).toEqual([{ rating: 'good' }]);
    expect(screen.getByRole('status')).toHaveTextContent(ratingThanks('good'));
  });

  it('ignores an ask for another session', async () => {
    const transport = await openWidget();
    await act(async () => transport.askRating('session_someone_else'));
    expect(screen.queryByText(ratingQuestion)).not.toBeInTheDocument();
  });

  it('asks on load when it was asked while the widget was away', async () => {
    ratingState = { asked: true, rating: null };
    await openWidget();
    expect(screen.getByText(ratingQuestion)).toBeInTheDocument();
  });

  it('shows the thank-you, not the question, for a session rated already', async () => {
    ratingState = { asked: true, rating: { rating: 'good', comment: null, ratedAt: new Date().toISOString() } };
    await openWidget();
    expect(screen.queryByText(ratingQuestion)).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent(ratingThanks('good'));
  });

  it("keeps the prompt and shows the server's refusal", async () => {
    ratingAnswer = () => jsonResponse({ message: 'Validation failed', errors: { comment: 'Comment must be at most 1000 characters' } }, 400);
    const transport = await openWidget();
    await act(async () => transport.askRating(sessionId));
    fireEvent.click(screen.getByRole('button', { name: 'Good' }));
    fireEvent.click(screen.getByRole('button', { name: 'Send rating' }));
    await settle();
    expect(screen.getByRole('alert')).toHaveTextContent('Comment must be at most 1000 characters');
    expect(screen.getByRole('button', { name: 'Send rating' })).toBeEnabled();
  });
});
