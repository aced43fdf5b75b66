import { Clock, LogOut, WifiOff } from 'lucide-react';
import { useEffect, useState } from 'react';
import { timings } from '../../../../api/contract/brand';
import { formatCountdown } from '../lib/format';
import { staffIdleMs, useStaffSession } from '../session-store';
import { useLiveStatus } from '../stores/live-status-store';
import { AdminNav } from './admin-nav';
import { OwnAccount } from './own-name-dialog';

/** Time left before the idle logout, refreshed every second. */
export function SessionCountdown() {
  const lastActivityAt = useStaffSession((state) => state.lastActivityAt);
  const staffIdleMinutes = useStaffSession((state) => state.staffIdleMinutes);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), timings.countdownRefreshMs);
    return () => clearInterval(timer);
  }, []);
  // Activity between two ticks lies in this tick's future: never show more than the full limit.
  const remaining = Math.min(staffIdleMs(staffIdleMinutes), lastActivityAt + staffIdleMs(staffIdleMinutes) - now);
  return (
    <span className="inline-flex items-center gap-1.5 rounded-md bg-slate-100 px-2.5 py-1 text-sm text-slate-700" title="Session expires after inactivity">
      <Clock className="size-4" aria-hidden="true" />
      <span className="sr-only">Session expires in</span>
      <span data-testid="session-countdown" className="font-mono tabular-nums">
        {formatCountdown(remaining)}
      </span>
    </span>
  );
}

/** Shown while the staff socket is down: the lists still refresh, on a timer. */
function LiveUpdatesPaused() {
  const paused = useLiveStatus((state) => state.paused);
  if (!paused) return null;
  return (
    <span role="status" className="inline-flex items-center gap-1.5 rounded-md bg-amber-50 px-2.5 py-1 text-sm text-amber-800 ring-1 ring-amber-200">
      <WifiOff className="size-4" aria-hidden="true" />
      Live updates paused: refreshing every {timings.staffOfflineRefreshMs / 1000} s
    </span>
  );
}

export function DashboardHeader() {
  const role = useStaffSession((state) => state.account?.role);
  const signOut = useStaffSession((state) => state.signOut);
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <div>
          <h1 className="text-xl font-bold text-slate-900">Admin Dashboard</h1>
          <OwnAccount />
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <LiveUpdatesPaused />
          <SessionCountdown />
          <button
            type="button"
            onClick={() => void signOut()}
            className="inline-flex items-center gap-1.5 rounded-md border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-50"
          >
            <LogOut className="size-4" aria-hidden="true" />
            Logout
          </button>
        </div>
      </div>
      <div className="mx-auto max-w-7xl px-4 pb-2 sm:px-6">
        <AdminNav role={role} />
      </div>
    </header>
  );
}
