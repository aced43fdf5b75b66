import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter, stubNetwork } from '../../../test/render';
import { ContactForm } from './contact-form';

afterEach(() => vi.unstubAllGlobals());

async function fillValid(user: ReturnType<typeof renderWithRouter>['user']) {
  await user.type(screen.getByLabelText(/Full Name/), 'James Whitfield');
  await user.type(screen.getByLabelText(/Email Address/), 'james@whitfield.example');
  await user.type(screen.getByLabelText(/Dealership Name/), 'Whitfield Auto Sales');
  await user.type(screen.getByLabelText(/Phone Number/), '(512) 555-0100');
  await user.selectOptions(screen.getByLabelText(/Subject/), 'Pricing Information');
  await user.type(screen.getByLabelText(/Message/), 'What does the Professional plan include for 80 cars?');
}

describe('contact form', { timeout: 20_000 }, () => {
  it('offers the spec subjects and shows every message under its field', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<ContactForm />);
    const options = within(screen.getByLabelText(/Subject/)).getAllByRole('option').map((option) => option.textContent);
    expect(options).toEqual([
      'Select a subject',
      'Schedule a Demo',
      'Pricing Information',
      'Technical Support',
      'Partnership Opportunities',
      'General Inquiry',
    ]);
    await user.type(screen.getByLabelText(/Phone Number/), '12345');
    await user.type(screen.getByLabelText(/Message/), 'too short');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    for (const message of [
      'Name must be at least 2 characters',
      'Please enter a valid email address',
      'Company name must be at least 2 characters',
      'Please enter a valid phone number',
      'Please select a subject',
      'Message must be at least 10 characters',
    ]) {
      expect(await screen.findByText(message)).toBeVisible();
    }
    expect(network.calls).toHaveLength(0);
  });

  it('says Sending... while pending, then toasts and resets', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<ContactForm />);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(network.calls[0]).toMatchObject({ url: '/api/contact-submission', body: { subject: 'pricing', phone: '(512) 555-0100' } });
    network.respond(201, { id: 7 });
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Message sent successfully!')).toBeVisible();
    expect(within(toast).getByText("We'll get back to you within 24 hours.")).toBeVisible();
    await waitFor(() => expect(screen.getByLabelText(/Full Name/)).toHaveValue(''));
    expect(screen.getByLabelText(/Subject/)).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Send Message' })).toBeEnabled();
  });

  it('keeps what was typed and shows the failure toast on a network error', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<ContactForm />);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await screen.findByRole('button', { name: 'Sending...' });
    network.fail();
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Error sending message')).toBeVisible();
    expect(within(toast).getByText('Please try again or contact us directly.')).toBeVisible();
    expect(screen.getByLabelText(/Full Name/)).toHaveValue('James Whitfield');
  });

  it('shows a field error the server names under that field', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<ContactForm />);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await screen.findByRole('button', { name: 'Sending...' });
    network.respond(400, { message: 'Validation failed', errors: { email: 'Please enter a valid email address' } });
    expect(await screen.findByText('Please enter a valid email address')).toBeVisible();
  });

  it('refuses an invisible character in the name with the API\'s message, before sending', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<ContactForm />);
    await fillValid(user);
    // A zero-width space, as a paste would bring it.
    await user.type(screen.getByLabelText(/Full Name/), '\u200B');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByText('Contains characters that are not allowed')).toBeVisible();
    expect(network.calls).toHaveLength(0);
  });
});
