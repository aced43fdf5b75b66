import { useEffect } from 'react';
import { AdminDashboard } from './components/admin-dashboard';
import { SignInCard } from './components/sign-in-card';
import { useStaffSession } from './session-store';

/** /admin: the sign-in card, or the dashboard while the server holds a live staff session. */
export function AdminPage() {
  const status = useStaffSession((state) => state.status);
  const restore = useStaffSession((state) => state.restore);
  useEffect(() => {
    void restore();
  }, [restore]);

  if (status === 'checking') {
    return (
      <main className="flex min-h-screen items-center justify-center bg-slate-50" aria-busy="true">
        <p className="text-sm text-slate-500">Loading...</p>
      </main>
    );
  }
  return status === 'signed-in' ? <AdminDashboard /> : <SignInCard />;
}
