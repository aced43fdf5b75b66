import { lazy, Suspense, useEffect, useState } from 'react';
import { type ToastOptions, useToastStore } from './toast-store';

export type { ToastItem, ToastVariant } from './toast-store';
export { useToastStore } from './toast-store';

/** Shows a toast from anywhere: `toast({ title, description, variant })`. */
export const toast = (options: ToastOptions) => useToastStore.getState().show(options);

const ToastRegion = lazy(() => import('./toast-region').then((module) => ({ default: module.ToastRegion })));

/**
 * Mounted once, at the app root. The Radix region (about 18 KB gzip) loads on the first toast,
 * or on the first F8 press (the hotkey that focuses the region), never on first paint.
 */
export function Toaster() {
  const hasToast = useToastStore((state) => state.toasts.length > 0);
  const [wanted, setWanted] = useState(false);
  const [loadedByHotkey, setLoadedByHotkey] = useState(false);

  useEffect(() => {
    if (wanted) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'F8') {
        setLoadedByHotkey(true);
        setWanted(true);
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [wanted]);

  // Once loaded, the region stays mounted so a dismissed toast can animate out.
  if (hasToast && !wanted) setWanted(true);
  if (!wanted && !hasToast) return null;
  return (
    <Suspense fallback={null}>
      <ToastRegion focusOnMount={loadedByHotkey} />
    </Suspense>
  );
}
