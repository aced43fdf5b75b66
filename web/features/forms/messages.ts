import type { ToastOptions } from '../../components/ui/toast-store';

/** The toasts of the lead forms, in one place. */
export const formToasts = {
  demoSuccess: { title: 'Demo Requested!', description: "We'll contact you within 24 hours to schedule your demo.", variant: 'success' },
  demoFailure: { title: 'Error', description: 'Failed to submit demo request. Please try again.', variant: 'destructive' },
  contactSuccess: { title: 'Message sent successfully!', description: "We'll get back to you within 24 hours.", variant: 'success' },
  contactFailure: { title: 'Error sending message', description: 'Please try again or contact us directly.', variant: 'destructive' },
  supportSuccess: { title: 'Support ticket created!', description: "We'll respond within 2 hours during business hours.", variant: 'success' },
  supportFailure: { title: 'Error creating ticket', description: 'Please try again or contact us directly.', variant: 'destructive' },
  getStartedSuccess: {
    title: 'Application submitted successfully!',
    description: 'Your request has been saved. Proceeding to payment to complete setup.',
    variant: 'success',
  },
  getStartedFailure: { title: 'Submission failed', description: 'Please try again or contact us directly.', variant: 'destructive' },
} satisfies Record<string, ToastOptions>;
