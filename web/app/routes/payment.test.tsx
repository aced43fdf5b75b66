import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { pricingPlans } from '../../../api/contract/plans';
import { plans } from '../../features/marketing/content';
import { renderWithRouter } from '../../test/render';
import { PaymentPage } from './payment';

afterEach(() => localStorage.clear());

describe('payment page', () => {
  it('shows the plan of ?plan= beside the placeholder', () => {
    renderWithRouter(<PaymentPage />, { path: '/payment', url: '/payment?plan=starter' });
    expect(screen.getByTestId('payment-plan')).toHaveTextContent('Your planStarter ($99/month)');
    expect(screen.getByText(/Online payment processing is being configured/)).toBeVisible();
  });

  it('without a query, shows the plan and reference of the application this browser just sent', () => {
    localStorage.setItem('dealerapp_data', JSON.stringify({ firstName: 'Maria', dealershipName: 'Hill Country Motors', plan: 'professional', reference: 'LW-G-9' }));
    renderWithRouter(<PaymentPage />, { path: '/payment', url: '/payment?plan=gold' });
    expect(screen.getByTestId('payment-plan')).toHaveTextContent('Professional ($199/month)');
    expect(screen.getByText('LW-G-9')).toBeVisible();
    expect(screen.getByText('Hill Country Motors')).toBeVisible();
  });

  it('shows no plan when none was picked', () => {
    renderWithRouter(<PaymentPage />, { path: '/payment' });
    expect(screen.queryByTestId('payment-plan')).not.toBeInTheDocument();
    expect(screen.getByText(/Online payment processing is being configured/)).toBeVisible();
  });

  it('names the plans as the pricing cards do (one price list)', () => {
    expect(plans.map(({ planId, name, price }) => ({ planId, name, price }))).toEqual(pricingPlans);
  });
});
