import type { FormikHelpers } from 'formik';
import { toast } from '../../components/ui/toast';
import type { ToastOptions } from '../../components/ui/toast-store';
import { serverFieldErrors } from '../../lib/form';

/**
 * The one submit flow of the lead forms: send, then a success toast and a reset, or a failure
 * toast with the form kept as typed (and any field errors the server named shown under the fields).
 */
export async function submitLead<Values>(
  send: (values: Values) => Promise<unknown>,
  values: Values,
  helpers: FormikHelpers<Values>,
  outcome: { success: ToastOptions; failure: ToastOptions; onSuccess?: () => void; reset?: boolean },
): Promise<boolean> {
  try {
    await send(values);
  } catch (error) {
    const fieldErrors = serverFieldErrors(error);
    if (fieldErrors) helpers.setErrors(fieldErrors as Parameters<typeof helpers.setErrors>[0]);
    toast(outcome.failure);
    return false;
  }
  toast(outcome.success);
  if (outcome.reset !== false) helpers.resetForm();
  outcome.onSuccess?.();
  return true;
}
