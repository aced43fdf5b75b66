import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter, stubNetwork } from '../../test/render';
import { RatePage } from './rate';

afterEach(() => vi.unstubAllGlobals());

const token = `${'c'.repeat(40)}.${'s'.repeat(43)}`;

describe('the rating link page', { timeout: 20_000 }, () => {
  it('records nothing on opening: the link’s choice comes preselected, the token leaves the address, and Send rates', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<RatePage />, { path: '/rate', url: `/rate?token=${token}&rating=bad` });
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(router.state.historyAction).toBe('REPLACE');
    expect(network.calls).toEqual([]);
    expect(screen.getByRole('button', { name: 'Bad' })).toHaveAttribute('aria-pressed', 'true');

    await user.type(screen.getByLabelText('Anything to add? (optional)'), 'Nobody called back');
    await user.click(screen.getByRole('button', { name: 'Send rating' }));
    expect(network.calls).toEqual([expect.objectContaining({ url: '/api/chat-rating-by-link', method: 'POST', body: { token, rating: 'bad', comment: 'Nobody called back' } })]);
    await act(async () => network.respond(200, { rating: 'bad', comment: 'Nobody called back', ratedAt: new Date().toISOString() }));
    expect(await screen.findByRole('status')).toHaveTextContent('Thanks for telling us.');
  });

  it('shows why a link is refused and lets the visitor choose again', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<RatePage />, { path: '/rate', url: `/rate?token=${token}` });
    // No choice in the link: nothing to send yet.
    expect(screen.getByRole('button', { name: 'Send rating' })).toBeDisabled();
    await user.click(screen.getByRole('button', { name: 'Good' }));
    await user.click(screen.getByRole('button', { name: 'Send rating' }));
    await act(async () => network.respond(410, { message: 'This rating link has expired' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This rating link has expired');
  });

  it('says the link is not valid without a token', () => {
    renderWithRouter(<RatePage />, { path: '/rate' });
    expect(screen.getByRole('alert')).toHaveTextContent('This rating link is not valid.');
    expect(screen.queryByRole('button', { name: 'Send rating' })).toBeNull();
  });
});
