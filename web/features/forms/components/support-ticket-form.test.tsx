import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter, stubNetwork } from '../../../test/render';
import { SupportTicketForm } from './support-ticket-form';

afterEach(() => vi.unstubAllGlobals());

async function fillValid(user: ReturnType<typeof renderWithRouter>['user']) {
  await user.type(screen.getByLabelText(/Full Name/), 'Priya Raman');
  await user.type(screen.getByLabelText(/Email Address/), 'priya@lakeside.example');
  await user.type(screen.getByLabelText(/Dealership Name/), 'Lakeside Pre-Owned');
  await user.selectOptions(screen.getByLabelText(/Priority/), 'High');
  await user.selectOptions(screen.getByLabelText(/Category/), 'Technical Issue');
  await user.type(screen.getByLabelText(/Subject/), 'Inventory feed stopped');
  await user.type(screen.getByLabelText(/Description/), 'New vehicles have not appeared on the site since Monday morning.');
}

describe('support ticket form', { timeout: 20_000 }, () => {
  it('offers the spec priorities and categories and shows every message under its field', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<SupportTicketForm />);
    expect(within(screen.getByLabelText(/Priority/)).getAllByRole('option').map((o) => o.getAttribute('value'))).toEqual([
      '',
      'low',
      'medium',
      'high',
      'urgent',
    ]);
    expect(within(screen.getByLabelText(/Category/)).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Select a category',
      'Technical Issue',
      'Account Management',
      'Billing Question',
      'Feature Request',
      'Training/Setup',
      'Other',
    ]);
    await user.click(screen.getByRole('button', { name: 'Submit Ticket' }));
    for (const message of [
      'Name must be at least 2 characters',
      'Please enter a valid email address',
      'Company name must be at least 2 characters',
      'Please select a priority level',
      'Please select a category',
      'Subject must be at least 5 characters',
      'Description must be at least 20 characters',
    ]) {
      expect(await screen.findByText(message)).toBeVisible();
    }
    expect(network.calls).toHaveLength(0);
  });

  it('says Creating Ticket... while pending, then a lasting thank-you with the reference in place of the form', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<SupportTicketForm />);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Ticket' }));
    expect(await screen.findByRole('button', { name: 'Creating Ticket...' })).toBeDisabled();
    expect(network.calls[0]).toMatchObject({ url: '/api/support-ticket', body: { priority: 'high', category: 'technical' } });
    network.respond(201, { id: 3, reference: 'LW-S-3' });
    // The heading takes focus in an effect after it renders: wait for the focus itself.
    const heading = await screen.findByRole('heading', { name: 'Support ticket created!' });
    await waitFor(() => expect(heading).toHaveFocus());
    const thankYou = screen.getByTestId('thank-you');
    expect(within(thankYou).getByText("We'll respond within 2 hours during business hours.")).toBeVisible();
    expect(within(thankYou).getByTestId('lead-reference')).toHaveTextContent('LW-S-3');
    expect(screen.queryByRole('form', { name: 'Create support ticket' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create another ticket' }));
    await waitFor(() => expect(screen.getByLabelText(/Description/)).toHaveValue(''));
  });

  it('moves focus to the first invalid field after an invalid submit', async () => {
    stubNetwork();
    const { user } = renderWithRouter(<SupportTicketForm />);
    await user.type(screen.getByLabelText(/Full Name/), 'Priya Raman');
    await user.type(screen.getByLabelText(/Email Address/), 'priya@lakeside.example');
    await user.type(screen.getByLabelText(/Dealership Name/), 'Lakeside Pre-Owned');
    await user.click(screen.getByRole('button', { name: 'Submit Ticket' }));
    await waitFor(() => expect(screen.getByLabelText(/Priority/)).toHaveFocus());
  });

  it('keeps the ticket and shows the failure toast when the server refuses it', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<SupportTicketForm />);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Ticket' }));
    await screen.findByRole('button', { name: 'Creating Ticket...' });
    network.respond(429, { message: 'Too many requests' });
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Error creating ticket')).toBeVisible();
    expect(screen.getByLabelText(/Subject/)).toHaveValue('Inventory feed stopped');
  });
});
