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

/**
 * Invisible format characters (Unicode category Cf: zero-width spaces and joiners, the BOM, bidi
 * marks, soft hyphens...) and the tag block (U+E0000-U+E007F, which can carry hidden ASCII). A
 * one-line field refuses them all: a name or a subject never needs one, and each can make text
 * read differently from what is stored.
 */
const formatCharacters = /[\p{Cf}\u{E0000}-\u{E007F}]/u;
/**
 * What a text area keeps of them, as people's writing needs it: the joiners (ZWJ in emoji such as
 * 👨‍👩‍👧, ZWNJ and ZWJ in Persian and Indic scripts), the bidi marks of right-to-left text, and the
 * tags of a subdivision flag (🏴 + lowercase letter or digit tags + cancel tag: England, Scotland, Wales).
 */
const textAreaFormatCharacters = /[\u200C-\u200F\u061C]/gu;
const flagTagSequences = /\u{1F3F4}[\u{E0030}-\u{E0039}\u{E0061}-\u{E007A}]{1,7}\u{E007F}/gu;

/** Whether `value` holds a character its field refuses; `multiline` for the fields typed into a text area. */
export function hasRefusedCharacters(value: string, options: { multiline?: boolean } = {}): boolean {
  if (controlCharacters.test(value)) return true;
  const checked = options.multiline ? value.replace(flagTagSequences, '').replace(textAreaFormatCharacters, '') : value;
  return formatCharacters.test(checked);
}

/** Line breaks of any kind: a single-line field (a name, a subject) that held one could forge lines in a mail. */
const lineBreaks = /[\r\n\u2028\u2029]/;
export function oneLineMessage(label: string): string {
  return `${label} must be on one line`;
}

/** The character rules of a text field; `multiline` for the fields typed into a text area. */
function textCharacters<T extends z.ZodType<string>>(schema: T, label: string, multiline: boolean) {
  const allowed = schema.refine((value) => !hasRefusedCharacters(value, { multiline }), controlCharacterMessage);
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

/**
 * A mailed link's token as api/lib/signed-link.ts makes them: `<payload>.<signature>`, base64url. The
 * shape only: the server checks the signature. `message` is what the person who opened the link reads.
 */
export function signedLinkToken(message: string) {
  return z
    .string({ error: message })
    .trim()
    .regex(/^[A-Za-z0-9_-]{8,1500}\.[A-Za-z0-9_-]{43}$/, message);
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

/**
 * The largest row id: ids are PostgreSQL `integer`s, and a bigger number in a query fails there
 * (a 500) instead of finding nothing. Every id a client sends is held to 1..maxRowId.
 */
export const maxRowId = 2_147_483_647;
export function rowIdMessage(label: string): string {
  return `${label} must be a whole number from 1 to ${maxRowId}`;
}
/** Whether `text` is a row id a client may send: digits only, 1..maxRowId. */
export function isRowIdText(text: string): boolean {
  return /^\d{1,10}$/.test(text) && Number(text) >= 1 && Number(text) <= maxRowId;
}

/** A row id in a path (`/api/leads/:kind/:id`), as a number. */
export function rowIdParam(label: string) {
  const message = rowIdMessage(label);
  return z
    .string({ error: message })
    .refine(isRowIdText, message)
    .transform((text) => Number(text));
}

/** A timestamp as the API writes it (`toISOString`), or without its milliseconds: a real instant, not just its shape. */
export function isIsoTimestamp(text: string): boolean {
  if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,3})?Z$/.test(text)) return false;
  const time = new Date(text);
  // A date that rolls over (February 30, hour 24) parses to another instant: its own fields come back changed.
  return !Number.isNaN(time.getTime()) && time.toISOString().slice(0, 19) === text.slice(0, 19);
}
export const cursorDateMessage = "before's date must be a UTC timestamp such as 2025-01-31T12:00:00.000Z";
