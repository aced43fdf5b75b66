import { z } from 'zod';

/** The one error body of the API: a sentence, and per-field messages for a validation failure. */
export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const okBodySchema = z.object({ ok: z.literal(true) });
export const messageBodySchema = z.object({ message: z.string() });

/**
 * Refused in every text field: control characters other than tab, newline and carriage return
 * (C0, DEL and C1), and the bidirectional embedding, override and isolate marks (U+202A-U+202E,
 * U+2066-U+2069), which make text show in a different order than it was typed.
 */
// eslint-disable-next-line no-control-regex
const controlCharacters = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/;
export const controlCharacterMessage = 'Contains characters that are not allowed';
export function hasControlCharacters(value: string): boolean {
  return controlCharacters.test(value);
}

/** Line breaks of any kind: a single-line field (a name, a subject) that held one could forge lines in a mail. */
const lineBreaks = /[\r\n\u2028\u2029]/;
export function oneLineMessage(label: string): string {
  return `${label} must be on one line`;
}

/** The character rules of a text field; `multiline` for the fields typed into a text area. */
function textCharacters<T extends z.ZodType<string>>(schema: T, label: string, multiline: boolean) {
  const allowed = schema.refine((value) => !controlCharacters.test(value), controlCharacterMessage);
  return multiline ? allowed : allowed.refine((value) => !lineBreaks.test(value), oneLineMessage(label));
}

/** A free text field a visitor fills in, optional, on one line: `senderName`, `pageUrl`, `referrer`. */
export function optionalLine(max: number, label: string) {
  return textCharacters(z.string({ error: `${label} must be text` }).trim().max(max, `${label} must be at most ${max} characters`), label, false)
    .optional()
    .transform((value) => (value ? value : undefined));
}

/**
 * A required text field: trimmed, on one line unless `multiline`, at least `min` characters (else `message`), at most `max`.
 * A missing or non-string value gets the same message as a too-short one, so the API and the
 * forms say the same words in every case.
 */
export function requiredText(min: number, message: string, max: number, label: string, options: { multiline?: boolean } = {}) {
  return textCharacters(
    z.string({ error: message }).trim().min(min, message).max(max, `${label} must be at most ${max} characters`),
    label,
    options.multiline ?? false,
  );
}

/** An optional text field: trimmed, on one line unless `multiline`, at most `max` characters; empty becomes undefined. */
export function optionalText(max: number, label: string, options: { multiline?: boolean } = {}) {
  return textCharacters(z.string({ error: `${label} must be text` }).trim().max(max, `${label} must be at most ${max} characters`), label, options.multiline ?? false)
    .optional()
    .transform((value) => (value ? value : undefined));
}

export const emailMessage = 'Please enter a valid email address';
export const emailField = z
  .string({ error: emailMessage })
  .trim()
  .max(254, emailMessage)
  .pipe(z.email({ error: emailMessage }));

export const phoneMessage = 'Please enter a valid phone number';
export const phoneField = z
  .string({ error: phoneMessage })
  .trim()
  .min(10, phoneMessage)
  .max(30, phoneMessage)
  .regex(/^\+?[\d\s().-]+((x|ext\.?)\s*\d{1,6})?$/i, phoneMessage);

/**
 * Hidden honeypot field on every public form. People never see it; bots fill it.
 * A filled honeypot is answered 201 and nothing is stored, so a bot learns nothing.
 */
export const honeypotField = z.string().max(500).optional();
export const honeypotName = '_gotcha';

/** ISO-8601 UTC timestamp as the API returns it. */
export const isoDate = z.string();
export const rowId = z.number().int().positive();

/** The largest id a row can have: ids are PostgreSQL `integer`s, which refuses a larger one with an error. */
export const maxRowId = 2_147_483_647;
const rowIdParamMessage = `id must be a whole number from 1 to ${maxRowId}`;

/** A row id in a URL path: digits only (no sign, fraction or exponent), within the range of a stored id. */
export const rowIdParam = z
  .string()
  .regex(/^[1-9]\d{0,9}$/, rowIdParamMessage)
  .transform(Number)
  .refine((id) => id <= maxRowId, rowIdParamMessage);
