import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { create } from 'zustand';
import { timings } from '../../../api/contract/brand';

export type ToastVariant = 'default' | 'destructive' | 'success';

export interface ToastItem {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  open: boolean;
}

interface ToastState {
  toasts: ToastItem[];
  show(toast: { title: string; description?: string; variant?: ToastVariant }): void;
  dismiss(id: number): void;
}

/** At most one toast is visible (spec section 9): a new one replaces the current one. */
const toastLimit = 1;
let nextId = 1;

export const useToastStore = create<ToastState>((set) => ({
  toasts: [],
  show: ({ title, description, variant = 'default' }) =>
    set((state) => ({
      toasts: [{ id: nextId++, title, description, variant, open: true }, ...state.toasts].slice(0, toastLimit),
    })),
  dismiss: (id) => set((state) => ({ toasts: state.toasts.filter((toast) => toast.id !== id) })),
}));

/** Shows a toast from anywhere: `toast({ title, description, variant })`. */
export const toast = (options: { title: string; description?: string; variant?: ToastVariant }) =>
  useToastStore.getState().show(options);

const variantClasses: Record<ToastVariant, string> = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-200 bg-white text-slate-900',
  destructive: 'border-red-700 bg-red-600 text-white',
};

/**
 * The notification region: Radix Toast, 5 s, swipe right past 50 px to dismiss, F8 focuses it.
 * Mounted once, at the app root.
 */
export function Toaster() {
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
          className={`group pointer-events-auto relative flex w-full items-start gap-3 rounded-lg border p-4 pr-9 shadow-lg transition data-[state=closed]:opacity-0 data-[swipe=move]:translate-x-[var(--radix-toast-swipe-move-x)] data-[swipe=end]:translate-x-full ${variantClasses[item.variant]}`}
          data-testid="toast"
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
      <ToastPrimitive.Viewport className="fixed top-0 right-0 z-[100] flex max-h-screen w-full flex-col gap-2 p-4 sm:top-auto sm:bottom-0 sm:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}
