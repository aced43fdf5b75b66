import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'react-router-dom';
import { createAdminQueryClient } from './api/lead-queries';
import { AdminDashboard } from './components/admin-dashboard';
import { SignInCard } from './components/sign-in-card';
import { useStaffSession } from './session-store';
import { matchOperationsScreen } from './operations/operations-paths';

/** The admins' operating screens (/admin/webhooks, /admin/data, /admin/jobs), loaded when visited. */
const OperationsPage = lazy(() => import('./operations/operations-page').then((module) => ({ default: module.OperationsPage })));

/**
 * /admin and everything under it (a lead at /admin/leads/:kind/:id): the sign-in card, or the
 * dashboard while the server holds a live staff session. The address is kept across a sign-in, so
 * a deep link opened signed out shows its lead once signed in.
 */
export function AdminPage() {
  const status = useStaffSession((state) => state.status);
  const restore = useStaffSession((state) => state.restore);
  const [queryClient] = useState(createAdminQueryClient);
  const operationsScreen = matchOperationsScreen(useLocation().pathname);
  useEffect(() => {
    void restore();
  }, [restore]);
  // Nothing a staff member read stays in memory after the sign-out.
  useEffect(() => {
    if (status === 'signed-out') queryClient.clear();
  }, [status, queryClient]);

  if (status === 'checking') {
    return (
      <main className="flex min-h-screen items-center justify-center bg-slate-50" aria-busy="true">
        <p className="text-sm text-slate-500">Loading...</p>
      </main>
    );
  }
  const signedIn = operationsScreen ? (
    <Suspense fallback={null}>
      <OperationsPage screen={operationsScreen} />
    </Suspense>
  ) : (
    <AdminDashboard />
  );
  return <QueryClientProvider client={queryClient}>{status === 'signed-in' ? signedIn : <SignInCard />}</QueryClientProvider>;
}
