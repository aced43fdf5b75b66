import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { createAdminQueryClient } from './api/lead-queries';
import { AdminDashboard } from './components/admin-dashboard';
import { SignInCard } from './components/sign-in-card';
import { isJoinPath } from './lib/admin-paths';
import { useStaffSession } from './session-store';

const JoinTeam = lazy(() => import('./components/join-team').then((module) => ({ default: module.JoinTeam })));

/**
 * /admin and everything under it (a lead at /admin/leads/:kind/:id): the sign-in card, or the
 * dashboard while the server holds a live staff session. The address is kept across a sign-in, so
 * a deep link opened signed out shows its lead once signed in.
 */
export function AdminPage() {
  const status = useStaffSession((state) => state.status);
  const restore = useStaffSession((state) => state.restore);
  const [queryClient] = useState(createAdminQueryClient);
  useEffect(() => {
    void restore();
  }, [restore]);
  // Nothing a staff member read stays in memory after the sign-out.
  useEffect(() => {
    if (status === 'signed-out') queryClient.clear();
  }, [status, queryClient]);

  // An invite link's page, whoever is signed in on this browser: using it signs its invitee in.
  const joining = isJoinPath(useLocation().pathname);
  if (joining) {
    return (
      <QueryClientProvider client={queryClient}>
        <Suspense fallback={null}>
          <JoinTeam />
        </Suspense>
      </QueryClientProvider>
    );
  }
  if (status === 'checking') {
    return (
      <main className="flex min-h-screen items-center justify-center bg-slate-50" aria-busy="true">
        <p className="text-sm text-slate-500">Loading...</p>
      </main>
    );
  }
  return <QueryClientProvider client={queryClient}>{status === 'signed-in' ? <AdminDashboard /> : <SignInCard />}</QueryClientProvider>;
}
