import { Formik, Form, Field, ErrorMessage } from 'formik';
import { adminLoginSchema, type AdminLoginInput } from '../../../../api/contract/auth';
import { validateWith } from '../../../lib/form';
import { useStaffSession } from '../session-store';

const initialValues: AdminLoginInput = { username: '', password: '' };

const inputClass =
  'mt-1 block w-full rounded-md border border-slate-300 px-3 py-2 text-sm shadow-sm focus:border-brand focus:ring-2 focus:ring-brand/30 focus:outline-none aria-[invalid=true]:border-red-500';

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
          {({ isSubmitting, errors, touched }) => (
            <Form noValidate className="mt-6 space-y-4">
              <div>
                <label htmlFor="admin-email" className="block text-sm font-medium text-slate-700">
                  Email
                </label>
                <Field
                  id="admin-email"
                  name="username"
                  type="email"
                  autoComplete="username"
                  className={inputClass}
                  aria-invalid={Boolean(touched.username && errors.username)}
                  aria-describedby="admin-email-error"
                />
                <ErrorMessage name="username">
                  {(message) => (
                    <p id="admin-email-error" className="mt-1 text-sm text-red-600">
                      {message}
                    </p>
                  )}
                </ErrorMessage>
              </div>
              <div>
                <label htmlFor="admin-password" className="block text-sm font-medium text-slate-700">
                  Password
                </label>
                <Field
                  id="admin-password"
                  name="password"
                  type="password"
                  autoComplete="current-password"
                  className={inputClass}
                  aria-invalid={Boolean(touched.password && errors.password)}
                  aria-describedby="admin-password-error"
                />
                <ErrorMessage name="password">
                  {(message) => (
                    <p id="admin-password-error" className="mt-1 text-sm text-red-600">
                      {message}
                    </p>
                  )}
                </ErrorMessage>
              </div>
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
