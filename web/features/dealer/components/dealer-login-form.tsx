import { Form, Formik } from 'formik';
import { useState } from 'react';
import { type DealerLoginInput, dealerLoginSchema, type ForgotPasswordInput, forgotPasswordSchema } from '../../../../api/contract/auth';
import { timings } from '../../../../api/contract/brand';
import { Checkbox } from '../../../components/ui/field';
import { toast } from '../../../components/ui/toast';
import { validateWith } from '../../../lib/form';
import { useDelayedNavigate } from '../../../lib/use-delayed-navigate';
import { SubmitButton, TextField } from '../../../components/form/formik-fields';
import { dealerLogin, requestPasswordReset } from '../api';
import { dealerToasts } from '../messages';

function LoginView({ onForgot }: { onForgot: () => void }) {
  const navigateAfter = useDelayedNavigate();
  // Remember me is offered but not sent: the session cookie already lasts 30 days (it is not part of the request).
  const [remember, setRemember] = useState(false);
  return (
    <Formik<DealerLoginInput>
      initialValues={{ username: '', password: '' }}
      validate={validateWith<DealerLoginInput>(dealerLoginSchema)}
      onSubmit={async (values) => {
        try {
          await dealerLogin(values);
        } catch (error) {
          toast(dealerToasts.loginFailure(error));
          return;
        }
        toast(dealerToasts.loginSuccess);
        // Kept "Signing in..." until the dashboard opens, so a second click cannot log in twice.
        await navigateAfter('/dealer-dashboard', timings.dealerLoginRedirectMs);
      }}
    >
      {({ isSubmitting }) => (
        <Form noValidate className="grid gap-5" aria-label="Dealer login">
          <div>
            <h1 className="text-2xl font-bold text-slate-900">Dealer Login</h1>
            <p className="mt-1 text-sm text-slate-600">Sign in to manage your inventory, leads and AI assistant.</p>
          </div>
          <TextField form="login" name="username" label="Username or Email" required autoComplete="username" />
          <TextField form="login" name="password" label="Password" type="password" required autoComplete="current-password" />
          <div className="flex items-center justify-between gap-4">
            <Checkbox id="login-remember" label="Remember me" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
            <button type="button" onClick={onForgot} className="text-sm font-medium text-brand hover:underline">
              Forgot password?
            </button>
          </div>
          <SubmitButton pending={isSubmitting} label="Sign In" pendingLabel="Signing in..." className="w-full" />
        </Form>
      )}
    </Formik>
  );
}

function ForgotPasswordView({ onBack }: { onBack: () => void }) {
  return (
    <Formik<ForgotPasswordInput>
      initialValues={{ email: '' }}
      validate={validateWith<ForgotPasswordInput>(forgotPasswordSchema)}
      onSubmit={async (values) => {
        try {
          await requestPasswordReset(values);
        } catch (error) {
          toast(dealerToasts.resetLinkFailure(error));
          return;
        }
        toast(dealerToasts.resetLinkSent);
        onBack();
      }}
    >
      {({ isSubmitting }) => (
        <Form noValidate className="grid gap-5" aria-label="Reset password">
          <div>
            <h1 className="text-2xl font-bold text-slate-900">Reset Password</h1>
            <p className="mt-1 text-sm text-slate-600">Enter the email on your account and we'll send you a link to choose a new password.</p>
          </div>
          <TextField form="forgot" name="email" label="Email Address" type="email" required autoComplete="email" />
          <div className="grid gap-3 sm:grid-cols-2">
            <button
              type="button"
              onClick={onBack}
              className="inline-flex h-12 items-center justify-center rounded-lg border border-slate-300 px-6 font-semibold text-slate-800 hover:border-brand hover:text-brand"
            >
              Back to Login
            </button>
            <SubmitButton pending={isSubmitting} label="Send Reset Link" pendingLabel="Sending..." />
          </div>
        </Form>
      )}
    </Formik>
  );
}

/** The dealer login card: the login view, or the forgot-password view. */
export function DealerLoginCard() {
  const [view, setView] = useState<'login' | 'forgot'>('login');
  return view === 'login' ? <LoginView onForgot={() => setView('forgot')} /> : <ForgotPasswordView onBack={() => setView('login')} />;
}
