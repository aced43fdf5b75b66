import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { toast, Toaster, useToastStore } from './toast';

describe('toasts', () => {
  it('loads the region on the first toast and shows one toast at a time', async () => {
    useToastStore.setState({ toasts: [] });
    render(<Toaster />);
    expect(screen.queryByRole('region', { name: /Notifications/ })).toBeNull();
    act(() => toast({ title: 'First', description: 'one' }));
    // Shown at once, while the region's code loads on demand.
    expect(screen.getByText('First')).toBeInTheDocument();
    expect(await screen.findByRole('region', { name: /Notifications/ }, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText('First')).toBeInTheDocument();
    act(() => toast({ title: 'Second', variant: 'destructive' }));
    expect(await screen.findByText('Second')).toBeInTheDocument();
    expect(screen.queryByText('First')).toBeNull();
    expect(screen.getAllByTestId('toast')).toHaveLength(1);
  });

  it('F8 loads the region and moves focus to it', async () => {
    useToastStore.setState({ toasts: [] });
    const user = userEvent.setup({ delay: null });
    render(<Toaster />);
    await user.keyboard('{F8}');
    const region = await screen.findByRole('region', { name: /Notifications/ }, { timeout: 5000 });
    await waitFor(() => expect(within(region).getByRole('list')).toHaveFocus());
  });
});

