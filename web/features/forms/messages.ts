import type { ToastOptions } from '../../components/ui/toast-store';

/** The failure toasts of the lead forms, in one place (a success gives way to the form's thank-you). */
export const formToasts = {
  demoFailure: { title: 'Error', description: 'Failed to submit demo request. Please try again.', variant: 'destructive' },
  contactFailure: { title: 'Error sending message', description: 'Please try again or contact us directly.', variant: 'destructive' },
  supportFailure: { title: 'Error creating ticket', description: 'Please try again or contact us directly.', variant: 'destructive' },
  getStartedFailure: { title: 'Submission failed', description: 'Please try again or contact us directly.', variant: 'destructive' },
} satisfies Record<string, ToastOptions>;
