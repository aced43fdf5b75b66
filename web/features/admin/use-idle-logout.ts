import { useEffect } from 'react';
import { timings } from '../../../api/contract/brand';
import { storageKeys } from '../../lib/storage-keys';
import { unlockAlerts } from './lib/alerts';
import { staffIdleMs, useStaffSession } from './session-store';

const activityEvents = ['mousedown', 'keydown', 'scroll', 'touchstart'] as const;
const gestureEvents = new Set(['mousedown', 'keydown', 'touchstart']);

/**
 * How often the idle limit is checked: every 30 s, or more often when the limit
 * itself is configured shorter than two minutes, so the configured limit still holds.
 */
export function idleCheckIntervalMs(idleMinutes: number): number {
  return Math.min(timings.staffIdleCheckMs, Math.max(250, staffIdleMs(idleMinutes) / 4));
}

/**
 * Staff activity (mouse press, key press, scroll, touch) refreshes the last-activity time; a check
 * logs out after the idle limit. While "Still there?" asks, only its answer counts: a stray key or
 * click, or a scroll the page makes itself, does not silently extend. Activity and sign-out in
 * another tab count here too.
 */
export function useIdleLogout(): void {
  const staffIdleMinutes = useStaffSession((state) => state.staffIdleMinutes);

  useEffect(() => {
    let lastRecordedAt = 0;
    const onActivity = (event: Event) => {
      if (gestureEvents.has(event.type)) unlockAlerts();
      if (useStaffSession.getState().idleWarningShown) return;
      const now = Date.now();
      // Scrolling fires per frame; once a second is plenty for a minutes-long limit.
      if (now - lastRecordedAt < 1000) return;
      lastRecordedAt = now;
      useStaffSession.getState().recordActivity(now);
    };
    for (const type of activityEvents) document.addEventListener(type, onActivity, { capture: true, passive: true });

    const onStorage = (event: StorageEvent) => {
      // Reads the shared last-activity time: work in another tab moves the countdown and closes "Still there?".
      if (event.key === storageKeys.adminLastActivity && event.newValue !== null) useStaffSession.getState().checkIdle();
      if (event.key === storageKeys.adminAuthenticated && event.newValue === null && useStaffSession.getState().status === 'signed-in') {
        useStaffSession.setState({ status: 'signed-out', email: null });
      }
    };
    window.addEventListener('storage', onStorage);

    const check = setInterval(() => useStaffSession.getState().checkIdle(), idleCheckIntervalMs(staffIdleMinutes));
    return () => {
      for (const type of activityEvents) document.removeEventListener(type, onActivity, { capture: true });
      window.removeEventListener('storage', onStorage);
      clearInterval(check);
    };
  }, [staffIdleMinutes]);
}
