import { useQuery } from '@tanstack/react-query';
import { Form, Formik } from 'formik';
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { acceptInviteFormSchema, inviteLinkInvalidMessage } from '../../../../api/contract/team';
import { TextField } from '../../../components/form/formik-fields';
import { toast } from '../../../components/ui/toast';
import { ApiError } from '../../../lib/api-client';
import { serverFieldErrors, validateWith } from '../../../lib/form';
import { teamApi } from '../api/team-api';
import { adminHome } from '../lib/admin-paths';
import { useStaffSession } from '../session-store';

interface JoinForm {
  password: string;
  confirmPassword: string;
}

/**
 * /admin/join?token=...: an invite link's page. The invitee chooses a password and is signed in at
 * once (the mailed link proved the address), landing on the inbox.
 */
export function JoinTeam() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signedIn = useStaffSession((state) => state.signedIn);
  // Read once and kept in memory: the address loses the token at once (no reload, bookmark or Referer carries it).
  const [token] = useState(() => params.get('token')?.trim() ?? '');
  const addressHasToken = params.has('token');
  useEffect(() => {
    if (addressHasToken) void navigate('/admin/join', { replace: true });
  }, [addressHasToken, navigate]);
  const invite = useQuery({ queryKey: ['invite', token], queryFn: () => teamApi.lookupInvite(token), enabled: token !== '', retry: false });
  const invalid = token === '' || invite.isError;

  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <section aria-labelledby="join-title" className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 id="join-title" className="text-2xl font-bold text-slate-900">
          Join the Lotwise team
        </h1>
        {invalid ? (
          <p role="alert" className="mt-3 text-sm text-slate-700">
            {inviteLinkInvalidMessage}.
          </p>
        ) : invite.isPending ? (
          <p className="mt-3 text-sm text-slate-500">Checking your link...</p>
        ) : (
          <>
            <p className="mt-1 text-sm text-slate-600">
              Welcome, {invite.data.displayName}. Choose a password for <span className="font-medium text-slate-800">{invite.data.email}</span>.
            </p>
            <Formik<JoinForm>
              initialValues={{ password: '', confirmPassword: '' }}
              validate={validateWith<JoinForm>(acceptInviteFormSchema)}
              onSubmit={async (values, helpers) => {
                try {
                  const answer = await teamApi.acceptInvite({ token, password: values.password });
                  signedIn(answer);
                  toast({ title: 'Welcome to the team', description: 'Your password is set and you are signed in.', variant: 'success' });
                  void navigate(adminHome, { replace: true });
                } catch (error) {
                  const errors = serverFieldErrors(error);
                  if (errors) helpers.setErrors(errors);
                  else
                    toast({
                      title: 'Could not join',
                      description: error instanceof ApiError && error.serverMessage ? error.serverMessage : 'Please try again.',
                      variant: 'destructive',
                    });
                }
              }}
            >
              {({ isSubmitting }) => (
                <Form noValidate className="mt-6 space-y-4">
                  {/* Password managers file the new password under the account's email. */}
                  <input type="email" name="username" value={invite.data.email} autoComplete="username" readOnly hidden />
                  <TextField form="join" name="password" label="Password" type="password" autoComplete="new-password" hint="At least 8 characters" />
                  <TextField form="join" name="confirmPassword" label="Confirm password" type="password" autoComplete="new-password" />
                  <button
                    type="submit"
                    disabled={isSubmitting}
                    className="w-full rounded-md bg-brand px-4 py-2 text-sm font-semibold text-white hover:bg-brand-dark disabled:opacity-70"
                  >
                    {isSubmitting ? 'Joining...' : 'Set password and sign in'}
                  </button>
                </Form>
              )}
            </Formik>
          </>
        )}
      </section>
    </main>
  );
}
