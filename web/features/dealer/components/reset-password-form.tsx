import { Form, Formik } from 'formik';
import { useNavigate } from 'react-router-dom';
import { passwordMinLength, resetPasswordFormSchema } from '../../../../api/contract/auth';
import { toast } from '../../../components/ui/toast';
import { serverFieldErrors, validateWith } from '../../../lib/form';
import { SubmitButton, TextField } from '../../../components/form/formik-fields';
import { resetPassword } from '../api';
import { dealerToasts } from '../messages';

interface ResetValues {
  token: string;
  password: string;
  confirmPassword: string;
}

/** Chooses a new password with the single-use token from the emailed link. */
export function ResetPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  return (
    <Formik<ResetValues>
      initialValues={{ token, password: '', confirmPassword: '' }}
      validate={validateWith<ResetValues>(resetPasswordFormSchema)}
      onSubmit={async (values, helpers) => {
        try {
          await resetPassword({ token: values.token, password: values.password });
        } catch (error) {
          // A password only the server refuses (a common one, the account's own name) is told under the field too.
          const fieldErrors = serverFieldErrors(error);
          if (fieldErrors?.password) helpers.setFieldError('password', fieldErrors.password);
          toast(dealerToasts.passwordChangeFailure(error));
          return;
        }
        toast(dealerToasts.passwordChanged);
        void navigate('/dealer-login');
      }}
    >
      {({ isSubmitting }) => (
        <Form noValidate className="grid gap-5" aria-label="Choose a new password">
          <TextField
            form="reset"
            name="password"
            label="New Password"
            type="password"
            required
            autoComplete="new-password"
            hint={`At least ${passwordMinLength} characters; not a common password or your username or email.`}
          />
          <TextField form="reset" name="confirmPassword" label="Confirm New Password" type="password" required autoComplete="new-password" />
          <SubmitButton pending={isSubmitting} label="Update Password" pendingLabel="Updating..." className="w-full" />
        </Form>
      )}
    </Formik>
  );
}
