import { create } from 'zustand';

export type ToastVariant = 'default' | 'destructive' | 'success';

export interface ToastItem {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  open: boolean;
}

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

interface ToastState {
  toasts: ToastItem[];
  show: (toast: ToastOptions) => void;
  dismiss: (id: number) => void;
}

/** At most one toast is visible: a new one replaces the current one. */
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

/** How each kind of toast looks, for the first-toast fallback and the Radix region alike. */
export const toastVariantClasses: Record<ToastVariant, string> = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-emerald-200 bg-white text-slate-900',
  destructive: 'border-red-700 bg-red-600 text-white',
};
