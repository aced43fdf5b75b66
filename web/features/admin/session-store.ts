import { create } from 'zustand';
import type { AdminLoginInput, StaffAccount, adminLoginAnswerSchema } from '../../../api/contract/auth';
import type { z } from 'zod';
import { defaultStaffIdleMinutes } from '../../../api/contract/brand';
import { toast } from '../../components/ui/toast';
import { storageKeys } from '../../lib/storage-keys';
import { ApiError } from '../../lib/api-client';
import { adminApi, onStaffUnauthorized } from './api/admin-api';

/** How often activity may refresh the server's idle clock through GET /api/session. */
const serverTouchEveryMs = 60_000;

type StaffSessionStatus = 'checking' | 'signed-out' | 'signed-in';

interface StaffSessionState {
  status: StaffSessionStatus;
  email: string | null;
  /** The signed-in member's display name and role, as the server read them last. */
  account: StaffAccount | null;
  staffIdleMinutes: number;
  /** Last mouse press, key press, scroll or touch, in ms since the epoch. */
  lastActivityAt: number;
  /** While the "Still there?" dialog shows, only its answer counts as activity. */
  idleWarningShown: boolean;
  /** Restores a sign-in on page load: the server says whether the staff session is still live. */
  restore: () => Promise<void>;
  signIn: (input: AdminLoginInput) => Promise<boolean>;
  signOut: () => Promise<void>;
  /** Signed in by another call's answer (an invite used): as after a sign-in. */
  signedIn: (answer: z.infer<typeof adminLoginAnswerSchema>) => void;
  /** The member's own account changed (their display name). */
  setAccount: (account: StaffAccount) => void;
  /** Back to the sign-in card with the "Session expired" toast; `idle` also tells the server. */
  expire: (reason: 'idle' | 'server') => void;
  recordActivity: (now?: number) => void;
  /** The "Still there?" dialog's answer: activity that reaches the server's idle clock at once. */
  staySignedIn: () => void;
  /** Asks the server whether the staff session is still live (after a refused socket, say). */
  recheck: () => Promise<void>;
  /** Logs out when the idle limit has passed; run every check interval. */
  checkIdle: (now?: number) => void;
}

export function staffIdleMs(minutes: number): number {
  return minutes * 60_000;
}

/**
 * How long before the idle limit "Still there?" asks: a minute, or the limit's last sixth when the
 * limit is two minutes or less (a minute would be half of it or more; 20 s of a 2-minute limit).
 */
export function idleWarningLeadMs(minutes: number): number {
  const idleMs = staffIdleMs(minutes);
  return idleMs > 2 * 60_000 ? 60_000 : idleMs / 6;
}

/** Last activity seen by any tab of this browser: the flag is shared, so work in one tab keeps all alive. */
function storedLastActivity(): number {
  const stored = Number(localStorage.getItem(storageKeys.adminLastActivity));
  return Number.isFinite(stored) ? stored : 0;
}

function mirrorSignedIn(lastActivityAt: number): void {
  localStorage.setItem(storageKeys.adminAuthenticated, 'true');
  localStorage.setItem(storageKeys.adminLastActivity, String(lastActivityAt));
}

function clearMirror(): void {
  localStorage.removeItem(storageKeys.adminAuthenticated);
  localStorage.removeItem(storageKeys.adminLastActivity);
}

let lastServerTouchAt = 0;
let trailingTouch: ReturnType<typeof setTimeout> | undefined;

/** GET /api/session counts as staff activity on the server while the staff session is live. */
function touchServer(now: number): void {
  clearTimeout(trailingTouch);
  trailingTouch = undefined;
  if (useStaffSession.getState().status !== 'signed-in') return;
  lastServerTouchAt = now;
  void useStaffSession.getState().recheck();
}

export const useStaffSession = create<StaffSessionState>((set, get) => ({
  status: 'checking',
  email: null,
  account: null,
  staffIdleMinutes: defaultStaffIdleMinutes,
  lastActivityAt: 0,
  idleWarningShown: false,

  async restore() {
    try {
      const session = await adminApi.session();
      if (!session.admin) {
        clearMirror();
        set({ status: 'signed-out', email: null, account: null, staffIdleMinutes: session.staffIdleMinutes });
        return;
      }
      const now = Date.now();
      const stored = localStorage.getItem(storageKeys.adminAuthenticated) === 'true' ? storedLastActivity() : 0;
      // The server just counted this call as activity; a stored time is kept only when still in the window.
      const lastActivityAt = now - stored < staffIdleMs(session.staffIdleMinutes) ? stored : now;
      lastServerTouchAt = now;
      mirrorSignedIn(lastActivityAt);
      set({ status: 'signed-in', email: session.admin.email, account: session.admin, staffIdleMinutes: session.staffIdleMinutes, lastActivityAt });
    } catch {
      clearMirror();
      set({ status: 'signed-out', email: null, account: null });
    }
  },

  async signIn(input) {
    try {
      const answer = await adminApi.login(input);
      get().signedIn(answer);
      toast({ title: 'Login successful', description: 'Welcome to the admin dashboard.', variant: 'success' });
      return true;
    } catch (error) {
      // A deactivated account is told so (the server says it only to whoever knows the password).
      const deactivated = error instanceof ApiError && error.status === 403 ? error.serverMessage : undefined;
      toast({ title: 'Login failed', description: deactivated ?? 'Please check your credentials and try again.', variant: 'destructive' });
      return false;
    }
  },

  signedIn(answer) {
    const now = Date.now();
    lastServerTouchAt = now;
    mirrorSignedIn(now);
    set({ status: 'signed-in', email: answer.admin.email, account: answer.admin, staffIdleMinutes: answer.staffIdleMinutes, lastActivityAt: now });
  },

  setAccount(account) {
    set({ account });
  },

  async signOut() {
    clearMirror();
    set({ status: 'signed-out', email: null, account: null });
    try {
      await adminApi.logout();
    } catch {
      // Already signed out on the server: nothing left to do.
    }
  },

  expire(reason) {
    if (get().status !== 'signed-in') return;
    clearMirror();
    set({ status: 'signed-out', email: null, account: null });
    toast({ title: 'Session expired', description: "You've been logged out due to inactivity.", variant: 'destructive' });
    if (reason === 'idle') void adminApi.logout().catch(() => undefined);
  },

  recordActivity(now = Date.now()) {
    if (get().status !== 'signed-in') return;
    set({ lastActivityAt: now });
    localStorage.setItem(storageKeys.adminLastActivity, String(now));
    // Leading touch when the last one is a minute old, else one trailing touch at the minute mark:
    // the server's idle clock then never lags the countdown, whatever the rhythm of the activity.
    if (now - lastServerTouchAt >= serverTouchEveryMs) touchServer(now);
    else if (trailingTouch === undefined) {
      trailingTouch = setTimeout(() => {
        trailingTouch = undefined;
        touchServer(Date.now());
      }, lastServerTouchAt + serverTouchEveryMs - now);
    }
  },

  staySignedIn() {
    const now = Date.now();
    get().recordActivity(now);
    // recordActivity may have left the touch for the minute mark, which a short limit does not wait for.
    if (lastServerTouchAt !== now) touchServer(now);
  },

  async recheck() {
    try {
      const session = await adminApi.session();
      if (!session.admin) get().expire('server');
      // A role or name changed since sign-in shows at the next check.
      else set({ account: session.admin });
    } catch {
      // Offline: the socket keeps retrying and the next staff call tells.
    }
  },

  checkIdle(now = Date.now()) {
    const state = get();
    if (state.status !== 'signed-in') return;
    const lastActivityAt = Math.max(state.lastActivityAt, storedLastActivity());
    if (now - lastActivityAt >= staffIdleMs(state.staffIdleMinutes)) state.expire('idle');
    else if (lastActivityAt !== state.lastActivityAt) set({ lastActivityAt });
  },
}));

onStaffUnauthorized(() => useStaffSession.getState().expire('server'));

/** For tests: back to the state of a fresh page load. */
export function resetStaffSession(): void {
  lastServerTouchAt = 0;
  clearTimeout(trailingTouch);
  trailingTouch = undefined;
  useStaffSession.setState({ status: 'checking', email: null, account: null, staffIdleMinutes: defaultStaffIdleMinutes, lastActivityAt: 0, idleWarningShown: false });
}
