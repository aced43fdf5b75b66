import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * `navigate(to)` after a pause (a success toast first), dropped if the component unmounts before
 * then: a visitor who went elsewhere meanwhile is not pulled back. The promise settles either way.
 */
export function useDelayedNavigate(): (to: string, delayMs: number) => Promise<void> {
  const navigate = useNavigate();
  const pending = useRef(new Map<ReturnType<typeof setTimeout>, () => void>());

  useEffect(() => {
    const timers = pending.current;
    return () => {
      for (const [timer, settle] of timers) {
        clearTimeout(timer);
        settle();
      }
      timers.clear();
    };
  }, []);

  return useCallback(
    (to: string, delayMs: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          pending.current.delete(timer);
          void navigate(to);
          resolve();
        }, delayMs);
        pending.current.set(timer, resolve);
      }),
    [navigate],
  );
}
