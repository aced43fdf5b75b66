import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithRouter, stubNetwork } from '../../../test/render';
import { GetStartedForm } from './get-started-form';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function fillValid(user: ReturnType<typeof renderWithRouter>['user']) {
  await user.type(screen.getByLabelText(/First Name/), 'Maria');
  await user.type(screen.getByLabelText(/Last Name/), 'Delgado');
  await user.type(screen.getByLabelText(/Email Address/), 'maria@hillcountry.example');
  await user.type(screen.getByLabelText(/Phone Number/), '512-555-0100');
  await user.type(screen.getByLabelText(/^Dealership Name/), 'Hill Country Motors');
  await user.type(screen.getByLabelText(/Street Address/), '1200 Ranch Road 620');
  await user.type(screen.getByLabelText(/^City/), 'Austin');
  await user.type(screen.getByLabelText(/^State/), 'TX');
  await user.type(screen.getByLabelText(/ZIP Code/), '78734');
  await user.selectOptions(screen.getByLabelText(/Inventory Size/), '50-99');
  await user.selectOptions(screen.getByLabelText(/Preferred Launch Date/), 'asap');
  await user.click(screen.getByLabelText('Increase online leads'));
  await user.click(screen.getByLabelText('Other:'));
  await user.type(screen.getByLabelText('Other goal'), 'Spanish-language site');
  await user.click(screen.getByLabelText('Cars.com'));
  await user.click(screen.getByLabelText(/I agree to the/));
}

describe('get started form', { timeout: 20_000 }, () => {
  const requiredMessages = [
    'First name must be at least 2 characters',
    'Last name must be at least 2 characters',
    'Please enter a valid email address',
    'Please enter a valid phone number',
    'Dealership name must be at least 2 characters',
    'Please enter a complete address',
    'City is required',
    'State is required',
    'ZIP code must be at least 5 characters',
    'Please select your inventory size',
    'Please select your preferred launch date',
    'Please select at least one goal',
    'You must agree to the terms',
  ];

  it('shows every required message under its field, a summary of them all at the top, and focuses the first', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<GetStartedForm />);
    expect(screen.queryByTestId('error-summary')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    for (const message of requiredMessages) {
      expect(await screen.findByText(message, { selector: 'p' })).toBeVisible();
    }
    const summary = await screen.findByTestId('error-summary');
    // Announced: it sits in an alert region, named by its heading; the one alert of the form, so a
    // screen reader reads the summary once instead of thirteen alerts at a time.
    expect(screen.getByRole('alert', { name: /Please correct the following in your application \(13 problems\)/ })).toContainElement(summary);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    // Each message under its field is no alert of its own, and is its control's description.
    expect(screen.getByText('First name must be at least 2 characters', { selector: 'p' })).not.toHaveAttribute('role');
    expect(screen.getByLabelText(/First Name/)).toHaveAccessibleDescription('First name must be at least 2 characters');
    expect(screen.getByLabelText(/Inventory Size/)).toHaveAccessibleDescription('Please select your inventory size');
    expect(screen.getByRole('group', { name: /Primary goals/ })).toHaveAccessibleDescription('Please select at least one goal');
    expect(screen.getByLabelText(/I agree to the/)).toHaveAccessibleDescription('You must agree to the terms');
    const links = within(summary).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual(requiredMessages);
    expect(links[0]).toHaveAttribute('href', '#gs-firstName');
    expect(links.at(-1)).toHaveAttribute('href', '#gs-agreeToTerms');
    // The form's first element in the page, above the first section.
    const form = screen.getByRole('form', { name: 'Get started application' });
    expect(form.firstElementChild).toContainElement(summary);
    await waitFor(() => expect(screen.getByLabelText(/First Name/)).toHaveFocus());
    expect(network.calls).toHaveLength(0);

    // Each entry takes the visitor to its field.
    await user.click(within(summary).getByRole('link', { name: 'Please select at least one goal' }));
    expect(screen.getByLabelText('Increase online leads')).toHaveFocus();
    await user.click(within(summary).getByRole('link', { name: 'You must agree to the terms' }));
    expect(screen.getByLabelText(/I agree to the/)).toHaveFocus();
  });

  it('focuses the first invalid field further down when the ones above it are valid, and lists only the errors left', async () => {
    stubNetwork();
    const { user } = renderWithRouter(<GetStartedForm />);
    await user.type(screen.getByLabelText(/First Name/), 'Maria');
    await user.type(screen.getByLabelText(/Last Name/), 'Delgado');
    await user.type(screen.getByLabelText(/Email Address/), 'maria@hillcountry.example');
    await user.type(screen.getByLabelText(/Phone Number/), '512-555-0100');
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    await waitFor(() => expect(screen.getByLabelText(/^Dealership Name/)).toHaveFocus());
    expect(within(screen.getByTestId('error-summary')).getAllByRole('link')).toHaveLength(requiredMessages.length - 4);
  });

  it('shows the plan of ?plan= on the form and sends it; an unknown plan is ignored', async () => {
    stubNetwork();
    renderWithRouter(<GetStartedForm />, { url: '/?plan=professional' });
    await waitFor(() => expect(screen.getByLabelText('Plan')).toHaveValue('professional'));
    expect(within(screen.getByLabelText('Plan')).getByRole('option', { selected: true })).toHaveTextContent('Professional ($199/month)');
    cleanup();
    renderWithRouter(<GetStartedForm />, { url: '/?plan=gold' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByLabelText('Plan')).toHaveValue('');
  });

  it('sends the application with its plan, saves dealerapp_data, then a lasting thank-you with the reference and the way to /payment', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<GetStartedForm />, { url: '/?plan=enterprise', routes: ['/payment'] });
    await waitFor(() => expect(screen.getByLabelText('Plan')).toHaveValue('enterprise'));
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByRole('button', { name: 'Submitting Application...' })).toBeDisabled();
    expect(network.calls[0]).toMatchObject({
      url: '/api/get-started-request',
      body: {
        plan: 'enterprise',
        firstName: 'Maria',
        inventorySize: '50-99',
        launchDate: 'asap',
        primaryGoals: ['Increase online leads', 'Other: Spanish-language site'],
        feedExportDestinations: ['Cars.com'],
        agreeToTerms: true,
        allowMarketing: false,
      },
    });
    expect(network.calls[0]?.body).not.toHaveProperty('otherGoalText');

    network.respond(201, { id: 9, reference: 'LW-G-9', plan: 'enterprise' });
    // The heading takes focus in an effect after it renders: wait for the focus itself.
    const heading = await screen.findByRole('heading', { name: 'Application submitted successfully!' });
    await waitFor(() => expect(heading).toHaveFocus());
    const thankYou = screen.getByTestId('thank-you');
    expect(within(thankYou).getByTestId('lead-reference')).toHaveTextContent('LW-G-9');
    expect(within(thankYou).getByText('Enterprise ($299/month)')).toBeVisible();
    expect(within(thankYou).getByText(/Strategy Call: a 30-minute consultation/)).toBeVisible();
    expect(JSON.parse(localStorage.getItem('dealerapp_data') ?? '{}')).toMatchObject({
      dealershipName: 'Hill Country Motors',
      plan: 'enterprise',
      reference: 'LW-G-9',
    });
    // It lasts: no toast, and no move to /payment by itself.
    expect(screen.queryByTestId('toast')).not.toBeInTheDocument();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await act(() => vi.advanceTimersByTimeAsync(5000));
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByTestId('thank-you')).toBeVisible();

    vi.useRealTimers();
    await user.click(within(thankYou).getByRole('link', { name: 'Continue to payment' }));
    expect(router.state.location.pathname).toBe('/payment');
    expect(router.state.location.search).toBe('?plan=enterprise');
  });

  it('stays on the form with the failure toast when submission fails', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<GetStartedForm />, { routes: ['/payment'] });
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    await screen.findByRole('button', { name: 'Submitting Application...' });
    network.respond(500, { message: 'Internal Server Error' });
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Submission failed')).toBeVisible();
    expect(within(toast).getByText('Please try again or contact us directly.')).toBeVisible();
    expect(localStorage.getItem('dealerapp_data')).toBeNull();
    expect(screen.queryByTestId('thank-you')).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('button', { name: 'Submit Application' })).toBeEnabled();
  });
});
