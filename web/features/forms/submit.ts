import type { FormikHelpers } from 'formik';
import type { LeadCreatedAnswer } from '../../../api/contract/after-submit';
import { toast } from '../../components/ui/toast';
import type { ToastOptions } from '../../components/ui/toast-store';
import { serverFieldErrors } from '../../lib/form';

/**
 * The one submit flow of the lead forms: send, then hand the answer to `onSuccess` (the form gives
 * way to its thank-you), or a failure toast with the form kept as typed (and any field errors the
 * server named shown under the fields, where the form's guide takes focus).
 */
export async function submitLead<Values>(
  send: (values: Values) => Promise<LeadCreatedAnswer>,
  values: Values,
  helpers: FormikHelpers<Values>,
  outcome: { failure: ToastOptions; onSuccess: (answer: LeadCreatedAnswer) => void },
): Promise<boolean> {
  let answer: LeadCreatedAnswer;
  try {
    answer = await send(values);
  } catch (error) {
    const fieldErrors = serverFieldErrors(error);
    if (fieldErrors) helpers.setErrors(fieldErrors as Parameters<typeof helpers.setErrors>[0]);
    toast(outcome.failure);
    return false;
  }
  outcome.onSuccess(answer);
  return true;
}
