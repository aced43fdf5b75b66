import * as DialogPrimitive from '@radix-ui/react-dialog';
import { X } from 'lucide-react';
import type { ReactNode } from 'react';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description?: ReactNode;
  children: ReactNode;
  /** Tailwind max-width class of the panel. */
  width?: string;
  /** Where focus goes when the dialog closes, if the element that opened it is gone. */
  onCloseAutoFocus?: (event: Event) => void;
  /** Hide the title visually (it is still announced). */
  hideTitle?: boolean;
}

/**
 * A modal dialog (Radix): traps focus, returns it on close, closes on Escape, the backdrop and the X.
 */
export function Dialog({ open, onOpenChange, title, description, children, width = 'max-w-lg', onCloseAutoFocus, hideTitle }: DialogProps) {
  return (
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay
          data-testid="dialog-backdrop"
          className="fixed inset-0 z-50 bg-slate-950/60 backdrop-blur-[2px] data-[state=open]:animate-[fade-in_150ms_ease-out]"
        />
        <DialogPrimitive.Content
          onCloseAutoFocus={onCloseAutoFocus}
          className={`fixed top-1/2 left-1/2 z-50 max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] ${width} -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-2xl focus:outline-none data-[state=open]:animate-[dialog-in_180ms_ease-out] sm:p-8`}
        >
          <DialogPrimitive.Title className={hideTitle ? 'sr-only' : 'pr-8 text-xl font-bold tracking-tight text-slate-900 sm:text-2xl'}>
            {title}
          </DialogPrimitive.Title>
          {description ? (
            <DialogPrimitive.Description className="mt-2 text-sm text-slate-600">{description}</DialogPrimitive.Description>
          ) : (
            <DialogPrimitive.Description className="sr-only">{title}</DialogPrimitive.Description>
          )}
          {children}
          <DialogPrimitive.Close
            // Pressing X must not blur a field first: the blur's validation message grows the centred
            // panel, X moves from under the pointer, and the click that would close it is lost.
            onMouseDown={(event) => event.preventDefault()}
            aria-label="Close"
            className="absolute top-4 right-4 rounded-full p-2 text-slate-500 transition-colors hover:bg-slate-100 hover:text-slate-900"
          >
            <X className="size-5" aria-hidden="true" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}

