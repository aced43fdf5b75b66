import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter, stubNetwork } from '../../../test/render';
import { DemoRequestDialog } from './demo-request-dialog';

afterEach(() => vi.unstubAllGlobals());

function renderDialog() {
  const onOpenChange = vi.fn();
  const view = renderWithRouter(<DemoRequestDialog open onOpenChange={onOpenChange} />);
  return { ...view, onOpenChange };
}

async function fillValid(user: ReturnType<typeof renderDialog>['user']) {
  await user.type(screen.getByLabelText(/Full Name/), 'Maria Delgado');
  await user.type(screen.getByLabelText(/Email Address/), 'maria@hillcountry.example');
  await user.type(screen.getByLabelText(/Dealership Name/), 'Hill Country Motors');
}

describe('demo request dialog', { timeout: 20_000 }, () => {
  it('shows the spec messages under the fields and sends nothing', async () => {
    const network = stubNetwork();
    const { user } = renderDialog();
    await user.type(screen.getByLabelText(/Email Address/), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Request Demo' }));
    expect(await screen.findByText('Name must be at least 2 characters')).toBeVisible();
    expect(screen.getByText('Please enter a valid email address')).toBeVisible();
    expect(screen.getByText('Company name must be at least 2 characters')).toBeVisible();
    expect(screen.getByLabelText(/Full Name/)).toHaveAttribute('aria-invalid', 'true');
    expect(network.calls).toHaveLength(0);
  });

  it('is disabled and says Submitting... while pending, then the thank-you with the reference in the dialog until Done', async () => {
    const network = stubNetwork();
    const { user, onOpenChange } = renderDialog();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Request Demo' }));

    const pendingButton = await screen.findByRole('button', { name: 'Submitting...' });
    expect(pendingButton).toBeDisabled();
    expect(network.calls[0]).toMatchObject({
      url: '/api/demo-request',
      method: 'POST',
      credentials: 'include',
      body: { name: 'Maria Delgado', email: 'maria@hillcountry.example', company: 'Hill Country Motors' },
    });

    network.respond(201, { id: 1, reference: 'LW-D-1' });
    // The heading takes focus in an effect after it renders: wait for the focus itself.
    const heading = await screen.findByRole('heading', { name: 'Demo Requested!' });
    await waitFor(() => expect(heading).toHaveFocus());
    const thankYou = screen.getByTestId('thank-you');
    expect(within(thankYou).getByText("We'll contact you within 24 hours to schedule your demo.")).toBeVisible();
    expect(within(thankYou).getByTestId('lead-reference')).toHaveTextContent('LW-D-1');
    expect(onOpenChange).not.toHaveBeenCalled();
    await user.click(within(thankYou).getByRole('button', { name: 'Done' }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
  });

  it('moves focus to the first invalid field after an invalid submit', async () => {
    stubNetwork();
    const { user } = renderDialog();
    await user.type(screen.getByLabelText(/Full Name/), 'Maria Delgado');
    await user.click(screen.getByRole('button', { name: 'Request Demo' }));
    await waitFor(() => expect(screen.getByLabelText(/Email Address/)).toHaveFocus());
  });

  it('stays open with the typed values and a destructive error toast when the request fails', async () => {
    const network = stubNetwork();
    const { user, onOpenChange } = renderDialog();
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Request Demo' }));
    await screen.findByRole('button', { name: 'Submitting...' });
    network.respond(500, { message: 'Internal Server Error' });

    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveAttribute('data-variant', 'destructive');
    expect(within(toast).getByText('Error')).toBeVisible();
    expect(within(toast).getByText('Failed to submit demo request. Please try again.')).toBeVisible();
    expect(onOpenChange).not.toHaveBeenCalled();
    expect(screen.getByLabelText(/Full Name/)).toHaveValue('Maria Delgado');
    expect(screen.getByRole('button', { name: 'Request Demo' })).toBeEnabled();
  });
});
