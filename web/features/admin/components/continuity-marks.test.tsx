import { act, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatSessionSummary } from '../../../../api/contract/chat';
import { useToastStore } from '../../../components/ui/toast-store';
import { adminQueryKeys, putChatRow } from '../api/live-cache';
import { useChatUi } from '../stores/chat-ui-store';
import { freshQueryClient, renderWithQueries as render, seedChatSessions, testQueryClient } from '../test/query-cache';
import { chatMessage, chatSession } from '../test/fake-server';
import { ConversationPane } from './conversation-pane';

const sessionId = 'session_1732200000000_seen01';

beforeEach(() => {
  freshQueryClient();
  useChatUi.getState().reset();
  useToastStore.setState({ toasts: [] });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function openConversation(session: Partial<ChatSessionSummary>, ...messages: ReturnType<typeof chatMessage>[]) {
  seedChatSessions([chatSession({ id: sessionId, senderName: 'Dana', unreadCount: 0, ...session })]);
  testQueryClient.setQueryData(adminQueryKeys.chatMessages(sessionId), messages);
  useChatUi.getState().openSession(sessionId);
  render(<ConversationPane onClose={() => undefined} />);
  return screen.getByRole('list', { name: 'Conversation' });
}

/** The text of each item of the conversation, in order. */
const items = (conversation: HTMLElement) => within(conversation).getAllByRole('listitem').map((item) => item.textContent?.replace(/\d{1,2}:\d{2}\s?[AP]M/, '').trim());

describe('"Seen" in the conversation pane', () => {
  it('goes under the last staff reply at or below the visitor’s seen seq, and nowhere else', () => {
    const conversation = openConversation(
      { visitorSeenSeq: 3 },
      chatMessage({ seq: 1, message: 'Question', senderName: 'Dana' }),
      chatMessage({ seq: 2, message: 'First answer', isFromUser: false, authorName: 'Anna' }),
      chatMessage({ seq: 3, message: 'Second answer', isFromUser: false, authorName: 'Anna' }),
      chatMessage({ seq: 4, message: 'Not seen yet', isFromUser: false, authorName: 'Anna' }),
    );
    expect(items(conversation)).toEqual(['DanaQuestion', 'AnnaFirst answer', 'AnnaSecond answer', 'Seen', 'AnnaNot seen yet']);
    expect(within(conversation).getAllByTestId('seen-mark')).toHaveLength(1);
  });

  it('is not shown before the visitor has seen any reply', () => {
    const conversation = openConversation(
      { visitorSeenSeq: 1 },
      chatMessage({ seq: 1, message: 'Question', senderName: 'Dana' }),
      chatMessage({ seq: 2, message: 'Answer', isFromUser: false }),
    );
    expect(within(conversation).queryByTestId('seen-mark')).not.toBeInTheDocument();
  });

  it('moves when a session update says the visitor saw more', async () => {
    const conversation = openConversation(
      { visitorSeenSeq: 2 },
      chatMessage({ seq: 1, message: 'Question', senderName: 'Dana' }),
      chatMessage({ seq: 2, message: 'First answer', isFromUser: false }),
      chatMessage({ seq: 3, message: 'Second answer', isFromUser: false }),
    );
    expect(items(conversation)).toContain('Seen');
    expect(items(conversation).indexOf('Seen')).toBe(2);
    // As the staff socket's chat-session:updated puts it.
    await act(async () => {
      putChatRow(testQueryClient, chatSession({ id: sessionId, senderName: 'Dana', unreadCount: 0, visitorSeenSeq: 3 }), 'push');
      // TanStack Query tells its observers on the next task.
      await new Promise((resolve) => setTimeout(resolve, 0));
    });
    expect(items(conversation).indexOf('Seen')).toBe(3);
  });
});

describe('"Email transcript" (Send transcript) in the conversation pane', () => {
  it('mails the conversation to the visitor’s email and says so', async () => {
    const fetchMock = vi.fn<typeof fetch>(async () => new Response(JSON.stringify({ email: 'dana@reyes.example', confirmationSent: false }), { status: 202 }));
    vi.stubGlobal('fetch', fetchMock);
    openConversation({ senderEmail: 'dana@reyes.example' }, chatMessage({ seq: 1, message: 'Question' }));
    const button = screen.getByRole('button', { name: 'Email the transcript to dana@reyes.example' });
    await act(async () => fireEvent.click(button));
    expect(fetchMock).toHaveBeenCalledWith(`/api/chat-sessions/${sessionId}/transcript`, expect.objectContaining({ method: 'POST' }));
    expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Transcript sent', description: 'Emailed to dana@reyes.example.', variant: 'success' });
  });

  it('says a confirmation went first when the address never confirmed it wants our mail', async () => {
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(async () => new Response(JSON.stringify({ email: 'dana@reyes.example', confirmationSent: true }), { status: 202 })));
    openConversation({ senderEmail: 'dana@reyes.example' }, chatMessage({ seq: 1, message: 'Question' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Email the transcript to dana@reyes.example' })));
    expect(useToastStore.getState().toasts[0]).toMatchObject({
      title: 'Confirmation sent',
      description: 'We sent a confirmation link to dana@reyes.example. Open it and the conversation will follow in a minute or two.',
      variant: 'success',
    });
  });

  it('shows the server’s refusal', async () => {
    const message = 'A transcript of this conversation was sent a moment ago: please wait 10 minutes before asking again.';
    vi.stubGlobal('fetch', vi.fn<typeof fetch>(async () => new Response(JSON.stringify({ message }), { status: 429 })));
    openConversation({ senderEmail: 'dana@reyes.example' }, chatMessage({ seq: 1, message: 'Question' }));
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /^Email the transcript/ })));
    expect(useToastStore.getState().toasts[0]).toMatchObject({ title: 'Transcript not sent', description: message, variant: 'destructive' });
  });

  it('is disabled for a conversation without an email', () => {
    openConversation({ senderEmail: null }, chatMessage({ seq: 1, message: 'Question' }));
    expect(screen.getByRole('button', { name: 'Email transcript: no email for this conversation' })).toBeDisabled();
  });
});
