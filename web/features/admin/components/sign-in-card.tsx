import { Form, Formik } from 'formik';
import { adminLoginSchema, type AdminLoginInput } from '../../../../api/contract/auth';
import { validateWith } from '../../../lib/form';
import { TextField } from '../../../components/form/formik-fields';
import { useStaffSession } from '../session-store';

const initialValues: AdminLoginInput = { username: '', password: '' };

/** The staff sign-in: email and password, "Signing in..." while busy. */
export function SignInCard() {
  const signIn = useStaffSession((state) => state.signIn);
  return (
    <main className="flex min-h-screen items-center justify-center bg-slate-50 px-4">
      <section aria-labelledby="admin-sign-in-title" className="w-full max-w-sm rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <h1 id="admin-sign-in-title" className="text-center text-2xl font-bold text-slate-900">
          Admin Dashboard
        </h1>
        <p className="mt-1 text-center text-sm text-slate-500">Sign in with your staff account</p>
        <Formik<AdminLoginInput>
          initialValues={initialValues}
          validate={validateWith<AdminLoginInput>(adminLoginSchema)}
          onSubmit={async (values) => {
            await signIn({ username: values.username.trim(), password: values.password });
          }}
        >
          {({ isSubmitting }) => (
            <Form noValidate className="mt-6 space-y-4">
              <TextField form="admin" name="username" label="Email" type="email" autoComplete="username" />
              <TextField form="admin" name="password" label="Password" type="password" autoComplete="current-password" />
              <button
                type="submit"
                disabled={isSubmitting}
                className="w-full rounded-md bg-brand px-4 py-2 text-sm font-semibold text-white hover:bg-brand-dark disabled:cursor-not-allowed disabled:opacity-70"
              >
                {isSubmitting ? 'Signing in...' : 'Sign In'}
              </button>
            </Form>
          )}
        </Formik>
      </section>
    </main>
  );
}
