import type { FormikErrors } from 'formik';
import type { z } from 'zod';

/**
 * Formik's `validate` from a contract schema: the same zod rules and messages as the server,
 * the first message of each field under that field. No rule is written twice.
 */
export function validateWith<Values>(schema: z.ZodType) {
  return (values: Values): FormikErrors<Values> => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of result.error.issues) {
      const field = String(issue.path[0] ?? '_');
      errors[field] ??= issue.message;
    }
    return errors as FormikErrors<Values>;
  };
}

/** Server-side field errors (`400 { errors }`) mapped onto Formik, for the rare rule only the server knows. */
export function serverFieldErrors(error: unknown): Record<string, string> | undefined {
  if (typeof error === 'object' && error && 'body' in error) {
    const body = (error as { body?: { errors?: Record<string, string> } }).body;
    return body?.errors;
  }
  return undefined;
}
