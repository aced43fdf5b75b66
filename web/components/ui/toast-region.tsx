import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { timings } from '../../../api/contract/brand';
import { toastVariantClasses, useToastStore } from './toast-store';

/**
 * The notification region: Radix Toast, 5 s, swipe right past 50 px to dismiss, F8 focuses it.
 * Loaded on the first toast (see `Toaster` in toast.tsx), so the home page does not ship it.
 */
export function ToastRegion({ focusOnMount = false }: { focusOnMount?: boolean }) {
  const viewportRef = useRef<HTMLOListElement>(null);
  // Loaded by an F8 press: that press came before the region existed, so focus it now.
  useEffect(() => {
    if (focusOnMount) viewportRef.current?.focus();
  }, [focusOnMount]);
  const toasts = useToastStore((state) => state.toasts);
  const dismiss = useToastStore((state) => state.dismiss);
  return (
    <ToastPrimitive.Provider
      duration={timings.toastDurationMs}
      swipeDirection="right"
      swipeThreshold={timings.toastSwipeThresholdPx}
      label="Notifications"
    >
      {toasts.map((item) => (
        <ToastPrimitive.Root
          key={item.id}
          open={item.open}
          onOpenChange={(open) => {
            if (!open) dismiss(item.id);
          }}
          type={item.variant === 'destructive' ? 'foreground' : 'background'}
          className={`group pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-9 shadow-lg transition data-[state=closed]:opacity-0 data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-full ${toastVariantClasses[item.variant]}`}
          data-testid="toast"
          data-variant={item.variant}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{item.title}</ToastPrimitive.Title>
            {item.description ? (
              <ToastPrimitive.Description className="text-sm opacity-90">{item.description}</ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close aria-label="Close notification" className="absolute top-2 right-2 rounded p-1 opacity-70 hover:opacity-100">
            <X className="size-4" aria-hidden="true" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport ref={viewportRef} className="fixed top-0 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 outline-none sm:top-auto sm:bottom-0 sm:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}
