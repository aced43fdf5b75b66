import { lazy, Suspense, useEffect, useState } from 'react';
import { type ToastOptions, toastVariantClasses, useToastStore } from './toast-store';

export type { ToastItem, ToastVariant } from './toast-store';
export { useToastStore } from './toast-store';

/** Shows a toast from anywhere: `toast({ title, description, variant })`. */
export const toast = (options: ToastOptions) => useToastStore.getState().show(options);

const ToastRegion = lazy(() => import('./toast-region').then((module) => ({ default: module.ToastRegion })));

/**
 * The first toast, shown at once while the Radix region's code is still on its way (a slow network
 * must not delay "Message sent"). Same look and place; the region takes over when it arrives.
 */
function ToastFallback() {
  const toasts = useToastStore((state) => state.toasts);
  return (
    <div role="status" aria-live="polite" className="fixed top-0 right-0 z-[100] flex w-full flex-col gap-2 p-4 sm:top-auto sm:bottom-0 sm:max-w-[420px]">
      {toasts.map((item) => (
        <div key={item.id} data-testid="toast" data-variant={item.variant} className={`grid gap-1 rounded-lg border p-4 shadow-lg ${toastVariantClasses[item.variant]}`}>
          <p className="text-sm font-semibold">{item.title}</p>
          {item.description ? <p className="text-sm opacity-90">{item.description}</p> : null}
        </div>
      ))}
    </div>
  );
}

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
    <Suspense fallback={<ToastFallback />}>
      <ToastRegion focusOnMount={loadedByHotkey} />
    </Suspense>
  );
}
