import { brand } from '../../../api/contract/brand';
import { forgotPasswordAnswer, invalidCredentialsMessage } from '../../../api/contract/auth';
import type { ToastOptions } from '../../components/ui/toast-store';
import { ApiError } from '../../lib/api-client';

/** The dealer-area toasts, in one place. */
export const dealerToasts = {
  loginSuccess: {
    title: 'Login successful!',
    description: `Welcome back to your ${brand.product} dashboard.`,
    variant: 'success',
  },
  loginFailure: (error: unknown): ToastOptions => ({
    title: 'Login failed',
    description: error instanceof ApiError ? (error.serverMessage ?? invalidCredentialsMessage) : 'Unable to connect to server.',
    variant: 'destructive',
  }),
  resetLinkSent: {
    title: forgotPasswordAnswer,
    description: 'Check your email for password reset instructions',
    variant: 'success',
  },
  resetLinkFailure: (error: unknown): ToastOptions => ({
    title: 'Error',
    description:
      error instanceof ApiError
        ? (error.serverMessage ?? 'Unable to send reset email. Please try again.')
        : 'Unable to connect to server. Please try again.',
    variant: 'destructive',
  }),
  passwordChanged: {
    title: 'Password updated',
    description: 'You can now sign in with your new password.',
    variant: 'success',
  },
  passwordChangeFailure: (error: unknown): ToastOptions => ({
    title: 'Error',
    description:
      error instanceof ApiError
        ? (error.body?.errors?.token ?? error.body?.errors?.password ?? error.serverMessage ?? 'Unable to reset your password. Please try again.')
        : 'Unable to connect to server. Please try again.',
    variant: 'destructive',
  }),
} satisfies Record<string, ToastOptions | ((error: unknown) => ToastOptions)>;

/** What a sample dashboard button that has nothing real behind it yet says. */
export const previewToast = (action: string): ToastOptions => ({
  title: 'Preview',
  description: `${action} opens once your ${brand.product} website is live. This dashboard shows sample data.`,
});
