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
    // Without an error summary, each message is announced on its own.
    expect(screen.getAllByRole('alert').map((alert) => alert.textContent)).toContain('Please select a subject');
    expect(screen.getByLabelText(/Subject/)).toHaveAccessibleDescription('Please select a subject');
    expect(network.calls).toHaveLength(0);
  });

  it('says Sending... while pending, then a lasting thank-you with the reference in place of the form', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<ContactForm />);
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    expect(await screen.findByRole('button', { name: 'Sending...' })).toBeDisabled();
    expect(network.calls[0]).toMatchObject({ url: '/api/contact-submission', body: { subject: 'pricing', phone: '(512) 555-0100' } });
    network.respond(201, { id: 1042, reference: 'LW-C-1042' });
    const heading = await screen.findByRole('heading', { name: 'Message sent successfully!' });
    expect(heading).toHaveFocus();
    const thankYou = screen.getByTestId('thank-you');
    expect(within(thankYou).getByText("We'll get back to you within 24 hours.")).toBeVisible();
    expect(within(thankYou).getByTestId('lead-reference')).toHaveTextContent('LW-C-1042');
    expect(within(thankYou).getByText('james@whitfield.example')).toBeVisible();
    expect(within(thankYou).getByRole('heading', { name: 'What happens next' })).toBeVisible();
    expect(screen.queryByRole('form', { name: 'Send us a message' })).not.toBeInTheDocument();
    // Lasting: no toast that fades, no timer that brings the form back.
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(screen.getByTestId('thank-you')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Send another message' }));
    expect(screen.getByLabelText(/Full Name/)).toHaveValue('');
    expect(screen.getByLabelText(/Subject/)).toHaveValue('');
  });

  it('moves focus to the first invalid field after an invalid submit', async () => {
    stubNetwork();
    const { user } = renderWithRouter(<ContactForm />);
    await user.type(screen.getByLabelText(/Full Name/), 'James Whitfield');
    await user.type(screen.getByLabelText(/Email Address/), 'james@whitfield.example');
    await user.click(screen.getByRole('button', { name: 'Send Message' }));
    await waitFor(() => expect(screen.getByLabelText(/Dealership Name/)).toHaveFocus());
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
