import { act, screen, within } from '@testing-library/react';
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
  it('shows every required message under its field', async () => {
    const network = stubNetwork();
    const { user } = renderWithRouter(<GetStartedForm />);
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    for (const message of [
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
    ]) {
      expect(await screen.findByText(message)).toBeVisible();
    }
    expect(network.calls).toHaveLength(0);
  });

  it('sends the application, saves dealerapp_data, toasts, then opens /payment 1.5 s later', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<GetStartedForm />, { routes: ['/payment'] });
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    expect(await screen.findByRole('button', { name: 'Submitting Application...' })).toBeDisabled();
    expect(network.calls[0]).toMatchObject({
      url: '/api/get-started-request',
      body: {
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

    vi.useFakeTimers({ shouldAdvanceTime: true });
    network.respond(201, { id: 9 });
    const toast = await screen.findByTestId('toast');
    expect(within(toast).getByText('Application submitted successfully!')).toBeVisible();
    expect(JSON.parse(localStorage.getItem('dealerapp_data') ?? '{}')).toMatchObject({ dealershipName: 'Hill Country Motors' });
    expect(router.state.location.pathname).toBe('/');
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(router.state.location.pathname).toBe('/payment');
  });

  it('does not open /payment when the visitor has gone elsewhere before the 1.5 s pass', async () => {
    const network = stubNetwork();
    const { user, router } = renderWithRouter(<GetStartedForm />, { routes: ['/payment', '/pricing'] });
    await fillValid(user);
    await user.click(screen.getByRole('button', { name: 'Submit Application' }));
    await screen.findByRole('button', { name: 'Submitting Application...' });

    vi.useFakeTimers({ shouldAdvanceTime: true });
    network.respond(201, { id: 9 });
    await screen.findByTestId('toast');
    await act(() => router.navigate('/pricing'));
    expect(screen.queryByRole('form', { name: 'Get started application' })).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(1500));
    expect(router.state.location.pathname).toBe('/pricing');
    expect(screen.getByText('Arrived at /pricing')).toBeVisible();
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
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('button', { name: 'Submit Application' })).toBeEnabled();
  });
});
