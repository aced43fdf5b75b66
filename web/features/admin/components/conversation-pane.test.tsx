import { screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { adminQueryKeys } from '../api/live-cache';
import { useChatUi } from '../stores/chat-ui-store';
import { freshQueryClient, renderWithQueries as render, seedChatSessions, testQueryClient } from '../test/query-cache';
import { chatMessage, chatSession } from '../test/fake-server';
import { ConversationPane } from './conversation-pane';

const sessionId = 'session_1732200000000_abcdef';

beforeEach(() => {
  freshQueryClient();
  useChatUi.getState().reset();
});

function openConversation(...messages: ReturnType<typeof chatMessage>[]) {
  seedChatSessions([chatSession({ id: sessionId, senderName: 'Dana', unreadCount: 0 })]);
  testQueryClient.setQueryData(adminQueryKeys.chatMessages(sessionId), messages);
  useChatUi.getState().openSession(sessionId);
  render(<ConversationPane onClose={() => undefined} />);
  return screen.getByRole('list', { name: 'Conversation' });
}

describe('conversation pane messages', () => {
  it('shows http(s) addresses in both sides’ messages as links opening in a new tab, as typed', () => {
    const conversation = openConversation(
      chatMessage({ message: 'My lot is at www.danas-cars.example (the used side).', senderName: 'Dana' }),
      chatMessage({ message: 'Thanks! Plans: https://lotwise.example/pricing#pro, or call us.', isFromUser: false }),
    );
    const links = within(conversation).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['www.danas-cars.example', 'https://www.danas-cars.example/'],
      ['https://lotwise.example/pricing#pro', 'https://lotwise.example/pricing#pro'],
    ]);
    for (const link of links) {
      expect(link).toHaveAttribute('target', '_blank');
      expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    }
    expect(links[0]!.parentElement).toHaveTextContent('My lot is at www.danas-cars.example (the used side).');
    expect(links[1]!.parentElement).toHaveTextContent('Thanks! Plans: https://lotwise.example/pricing#pro, or call us.');
  });

  it('names the staff member who wrote each reply, and Support where the author is not known', () => {
    const conversation = openConversation(
      chatMessage({ message: 'Hello?', senderName: 'Dana' }),
      chatMessage({ message: 'Hi Dana!', isFromUser: false, authorStaffId: 7, authorName: 'Anna' }),
      chatMessage({ message: 'Before authors were kept', isFromUser: false }),
    );
    const labels = within(conversation)
      .getAllByRole('listitem')
      .map((item) => item.querySelector('p')?.firstChild?.textContent);
    expect(labels).toEqual(['Dana', 'Anna', 'Support']);
  });

  it('shows markup and other schemes a visitor typed as text, never as elements or links', () => {
    const typed = '<a href="javascript:alert(1)">win</a> <img src=x onerror=alert(1)> data:text/html,hi javascript:alert(1)';
    const conversation = openConversation(chatMessage({ message: typed }));
    expect(within(conversation).queryByRole('link')).not.toBeInTheDocument();
    expect(conversation.querySelector('img, a')).toBeNull();
    expect(within(conversation).getByText(typed)).toBeInTheDocument();
  });
});
