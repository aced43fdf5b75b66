import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CannedReply, ChatNote } from '../../../../api/contract/team-inbox-notes';
import { adminQueryKeys } from '../api/live-cache';
import { teamInboxKeys } from '../api/team-inbox-queries';
import { useChatUi } from '../stores/chat-ui-store';
import { useCollision } from '../stores/collision-store';
import { chatMessage, chatSession } from '../test/fake-server';
import { freshQueryClient, renderWithQueries as render, seedChatSessions, testQueryClient } from '../test/query-cache';
import { ConversationPane } from './conversation-pane';

const sessionId = 'session_1732200000000_teaminbox';
const me = { staffId: 1, name: 'anna' };
const dana = { staffId: 2, name: 'Dana' };

beforeEach(() => {
  freshQueryClient();
  useChatUi.getState().reset();
  useCollision.getState().reset();
});

function openConversation(notes: ChatNote[] = [], canned: CannedReply[] = []) {
  seedChatSessions([chatSession({ id: sessionId, senderName: 'Rosa', senderEmail: 'rosa@valley-autos.example', unreadCount: 0 })]);
  testQueryClient.setQueryData(adminQueryKeys.chatMessages(sessionId), [
    chatMessage({ sessionId, message: 'How much is it?', createdAt: '2026-12-01T10:00:00.000Z' }),
    chatMessage({ sessionId, message: 'From $299.', isFromUser: false, createdAt: '2026-12-01T10:05:00.000Z' }),
  ]);
  testQueryClient.setQueryData(teamInboxKeys.chatNotes(sessionId), notes);
  testQueryClient.setQueryData(teamInboxKeys.cannedReplies, canned);
  useChatUi.getState().openSession(sessionId);
  render(
    <MemoryRouter>
      <ConversationPane onClose={() => undefined} />
    </MemoryRouter>,
  );
}

describe('private notes in the pane', () => {
  it('shows each note apart, labelled Note with its author and time, in the order of time', () => {
    openConversation([{ id: 5, sessionId, text: 'Owner of two lots, ask about both', authorStaffId: 2, authorName: 'Dana', createdAt: '2026-12-01T10:02:00.000Z' }]);
    const items = within(screen.getByRole('list', { name: 'Conversation' })).getAllByRole('listitem');
    const shown = items.filter((item) => item.dataset.from).map((item) => [item.dataset.from, item.textContent]);
    expect(shown.map(([from]) => from)).toEqual(['user', 'note', 'support']);
    const note = items.find((item) => item.dataset.from === 'note')!;
    expect(note).toHaveTextContent('Note');
    expect(note).toHaveTextContent('Dana');
    expect(note).toHaveTextContent('only staff see this');
    expect(note).toHaveTextContent('Owner of two lots, ask about both');
  });

  it('the Note toggle turns the box into a private note: its own draft, Add note, no canned picker', async () => {
    const user = userEvent.setup();
    openConversation([], [{ id: 1, title: 'Pricing', text: 'Hi {name}', createdAt: '', updatedAt: '' }]);
    const box = screen.getByRole('textbox', { name: 'Reply' });
    await user.type(box, 'Draft reply');
    await user.click(screen.getByRole('button', { name: 'Note' }));
    expect(screen.getByRole('button', { name: 'Note' })).toHaveAttribute('aria-pressed', 'true');
    const noteBox = screen.getByRole('textbox', { name: 'Private note' });
    expect(noteBox).toHaveValue('');
    await user.type(noteBox, '/pri');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add note' })).toBeEnabled();
    await user.click(screen.getByRole('button', { name: 'Reply' }));
    expect(screen.getByRole('textbox', { name: 'Reply' })).toHaveValue('Draft reply');
  });

  it('the / picker fills the visitor’s name from the conversation', async () => {
    const user = userEvent.setup();
    openConversation([], [{ id: 1, title: 'Pricing', text: 'Hi {name}, plans start at $299.', createdAt: '', updatedAt: '' }]);
    const box = screen.getByRole('textbox', { name: 'Reply' });
    await user.type(box, '/pri');
    await user.keyboard('{Enter}');
    expect(box).toHaveValue('Hi Rosa, plans start at $299.');
  });
});

describe('collision in the pane', () => {
  it('says who else is viewing and who is typing a reply; never oneself; a typist who leaves stops at once', () => {
    openConversation();
    const notice = screen.getByTestId('collision');
    act(() => useCollision.getState().loaded(me.staffId, [{ sessionId, viewers: [me] }]));
    expect(notice).toHaveTextContent('');
    act(() => useCollision.getState().setViewers({ sessionId, viewers: [me, dana] }));
    expect(notice).toHaveTextContent('Dana is viewing');
    act(() => useCollision.getState().setTyping(sessionId, dana, true));
    expect(notice).toHaveTextContent('Dana is typing a reply…');
    expect(notice).not.toHaveTextContent('viewing');
    act(() => useCollision.getState().setViewers({ sessionId, viewers: [me] }));
    expect(notice).toHaveTextContent('');
  });
});
