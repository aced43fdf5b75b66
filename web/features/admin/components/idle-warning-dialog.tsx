import * as DialogPrimitive from '@radix-ui/react-dialog';
import { Clock } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { timings } from '../../../../api/contract/brand';
import { Button } from '../../../components/ui/button';
import { formatCountdown } from '../lib/format';
import { idleWarningLeadMs, staffIdleMs, useStaffSession } from '../session-store';

/**
 * "Still there?", shown before the idle limit (idleWarningLeadMs) with the time left. Stay signed
 * in (or Escape) is activity that reaches the server at once; Sign out signs out; the backdrop does
 * nothing. With no answer the session ends as the countdown does, with the Session expired toast.
 */
export function IdleWarningDialog() {
  const lastActivityAt = useStaffSession((state) => state.lastActivityAt);
  const staffIdleMinutes = useStaffSession((state) => state.staffIdleMinutes);
  const staySignedIn = useStaffSession((state) => state.staySignedIn);
  const signOut = useStaffSession((state) => state.signOut);
  const stayButton = useRef<HTMLButtonElement>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), timings.countdownRefreshMs);
    return () => clearInterval(timer);
  }, []);

  const remaining = lastActivityAt + staffIdleMs(staffIdleMinutes) - now;
  const open = remaining <= idleWarningLeadMs(staffIdleMinutes);
  const timeUp = open && remaining <= 0;
  useEffect(() => {
    useStaffSession.setState({ idleWarningShown: open });
  }, [open]);
  useEffect(() => () => useStaffSession.setState({ idleWarningShown: false }), []);
  useEffect(() => {
    // The countdown said when the session ends: it ends then, not at the next 30 s idle check.
    if (timeUp) useStaffSession.getState().checkIdle();
  }, [timeUp]);

  return (
    // Only Escape closes it from inside (the backdrop is inert, there is no X): Escape answers "stay".
    <DialogPrimitive.Root open={open} onOpenChange={(stillOpen) => (stillOpen ? undefined : staySignedIn())}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay
          data-testid="idle-warning-backdrop"
          className="fixed inset-0 z-[60] bg-slate-950/60 backdrop-blur-[2px] data-[state=open]:animate-[fade-in_150ms_ease-out]"
        />
        <DialogPrimitive.Content
          role="alertdialog"
          onOpenAutoFocus={(event) => {
            event.preventDefault();
            stayButton.current?.focus();
          }}
          onInteractOutside={(event) => event.preventDefault()}
          className="fixed top-1/2 left-1/2 z-[60] w-[calc(100vw-2rem)] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-2xl focus:outline-none data-[state=open]:animate-[dialog-in_180ms_ease-out] sm:p-8"
        >
          <div className="flex items-start gap-4">
            <span className="shrink-0 rounded-full bg-amber-100 p-2.5 text-amber-700">
              <Clock className="size-6" aria-hidden="true" />
            </span>
            <div>
              <DialogPrimitive.Title className="text-xl font-bold tracking-tight text-slate-900">Still there?</DialogPrimitive.Title>
              <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">
                Your session ends in{' '}
                <span data-testid="idle-warning-countdown" className="font-mono font-semibold text-slate-900 tabular-nums">
                  {formatCountdown(remaining)}
                </span>{' '}
                because of inactivity. Unsent replies and unsaved notes stay in this browser.
              </DialogPrimitive.Description>
            </div>
          </div>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="outline" onClick={() => void signOut()}>
              Sign out
            </Button>
            <Button ref={stayButton} variant="brand" onClick={staySignedIn}>
              Stay signed in
            </Button>
          </div>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
