import { useEffect } from 'react';
import { useNavigate } from 'react-router-dom';
import { fetchSession } from './api';

/**
 * A dealer who is already signed in has nothing to do on the login page: send them on to the dashboard
 * (replacing the entry, so Back does not return to the form). A failed check leaves the form as it is.
 */
export function useSignedInDealerRedirect(): void {
  const navigate = useNavigate();
  useEffect(() => {
    const controller = new AbortController();
    fetchSession(controller.signal)
      .then((session) => {
        if (session.dealer) void navigate('/dealer-dashboard', { replace: true });
      })
      .catch(() => undefined);
    return () => controller.abort();
  }, [navigate]);
}
