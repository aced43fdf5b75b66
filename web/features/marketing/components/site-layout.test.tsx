import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { storageKeys } from '../../../lib/storage-keys';
import { useCookieConsent } from '../cookie-consent-store';
import { useWhyAiModal } from '../why-ai-store';
import { SiteLayout } from './site-layout';

function renderLayout() {
  useWhyAiModal.setState({ open: false });
  const router = createMemoryRouter(
    [
      {
        Component: SiteLayout,
        children: [
          { path: '/', element: <h1>Home</h1> },
          { path: '/contact', element: <h1>Contact Us</h1> },
          { path: '/about', element: <h1>About</h1> },
        ],
      },
    ],
    { initialEntries: ['/'] },
  );
  const user = userEvent.setup({ delay: null });
  render(<RouterProvider router={router} />);
  return { user, router };
}

describe('site header, Why AI? modal and footer', { timeout: 20_000 }, () => {
  it('opens the Why AI? modal from the mobile menu and closes the menu', async () => {
    const { user } = renderLayout();
    const toggle = screen.getByRole('button', { name: 'Open menu' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    const menu = document.getElementById(toggle.getAttribute('aria-controls') ?? '');
    expect(menu).not.toBeNull();
    await user.click(within(menu!).getByRole('button', { name: 'Why AI?' }));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('heading', { name: 'With Lotwise, you get the power to compete with big dealers at a small price!' })).toBeVisible();
    expect(within(dialog).getByText('87%')).toBeVisible();
    expect(within(dialog).getByText('Average Cost Savings')).toBeVisible();
    expect(within(dialog).getByText('5-7 Days')).toBeVisible();
    expect(within(dialog).getByText('Average Launch Time')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Close menu' })).toBeNull();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('opens from the footer, and its call to action closes it on the way to /contact', async () => {
    const { user, router } = renderLayout();
    await user.click(within(screen.getByRole('contentinfo')).getByRole('button', { name: 'Why AI?' }));
    const dialog = await screen.findByRole('dialog');
    const cta = within(dialog).getByRole('link', { name: /So, What Are You Waiting For\?/ });
    expect(cta).toHaveAttribute('href', '/contact');
    expect(within(cta).getByText('Get In Touch')).toBeInTheDocument();
    await user.click(cta);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(router.state.location.pathname).toBe('/contact');
  });

  it('closes on its X button and returns focus to the button that opened it', async () => {
    const { user } = renderLayout();
    const trigger = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', { name: 'Why AI?' });
    await user.click(trigger);
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(trigger).toHaveFocus());
  });
});

describe('cookie consent banner', () => {
  it('remembers rejecting non-essential cookies and can be reopened from the footer', async () => {
    useCookieConsent.setState({ consent: null, bannerOpen: true });
    const { user } = renderLayout();
    const banner = screen.getByRole('region', { name: 'Cookie consent' });
    await user.click(within(banner).getByRole('button', { name: 'Reject non-essential' }));
    expect(screen.queryByRole('region', { name: 'Cookie consent' })).toBeNull();
    expect(JSON.parse(localStorage.getItem(storageKeys.cookieConsent) ?? '{}')).toMatchObject({
      essential: true,
      analytics: false,
      functional: false,
      marketing: false,
    });
    await user.click(screen.getByRole('button', { name: 'Cookie Settings' }));
    await user.click(screen.getByRole('button', { name: 'Accept all' }));
    expect(JSON.parse(localStorage.getItem(storageKeys.cookieConsent) ?? '{}')).toMatchObject({ analytics: true, marketing: true });
  });
});
