import { describe, expect, it } from 'vitest';
import { dealerLoginSchema } from './auth';
import { chatMessageInputSchema, chatMessageTextSchema } from './chat';
import { controlCharacterMessage, emailField, emailMessage, optionalLine, optionalText, requiredText } from './common';
import { leadPatchSchema, listQuerySchema } from './leads';

/** The first message zod gives for `value`, or undefined when it passes. */
function messageOf(schema: { safeParse(value: unknown): { success: boolean; error?: { issues: { message: string }[] } } }, value: unknown) {
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error?.issues[0]?.message;
}

const oneLineFields = {
  requiredText: requiredText(2, 'Name must be at least 2 characters', 100, 'Name'),
  optionalText: optionalText(200, 'Company'),
  optionalLine: optionalLine(100, 'Name'),
};
const multilineFields = {
  requiredText: requiredText(2, 'Message must be at least 2 characters', 5000, 'Message', { multiline: true }),
  optionalText: optionalText(5000, 'Message', { multiline: true }),
};

/** Invisible or format characters: each inside an otherwise fine name. */
const invisible: [string, string][] = [
  ['a Unicode tag (ASCII smuggling)', 'Sam \u{E0049}\u{E0047}\u{E004E} Carter'],
  ['the language tag', 'Sam\u{E0001} Carter'],
  ['the cancel tag', 'Sam Carter\u{E007F}'],
  ['a zero-width space', 'Sam\u200BCarter'],
  ['a zero-width non-joiner', 'Sam\u200CCarter'],
  ['a zero-width joiner', 'Sam\u200DCarter'],
  ['a word joiner', 'Sam\u2060Carter'],
  ['a byte order mark', 'Sam\uFEFFCarter'],
  ['a left-to-right mark', 'Sam Carter\u200E'],
  ['a right-to-left mark', 'Sam\u200F Carter'],
  ['an Arabic letter mark', 'Sam\u061C Carter'],
  ['a right-to-left override', 'Sam \u202Eretrac'],
  ['a first-strong isolate', 'Sam \u2068Carter\u2069'],
  ['a soft hyphen', 'Sam Car\u00ADter'],
  ['a Mongolian vowel separator', 'Sam\u180ECarter'],
  ['an invisible function application', 'Sam\u2061Carter'],
  ['an interlinear annotation anchor', 'Sam\uFFF9Carter'],
  ['a musical beam format character', 'Sam\u{1D173}Carter'],
];

describe('one-line text fields', () => {
  describe.each(Object.entries(oneLineFields))('%s', (_name, schema) => {
    it.each(invisible)('refuses %s with the control-character message', (_label, value) => {
      expect(messageOf(schema, value)).toBe(controlCharacterMessage);
    });

    it('refuses an emoji sequence joined by a zero-width joiner, as any joiner on one line', () => {
      expect(messageOf(schema, 'Sam 👨‍👩‍👧')).toBe(controlCharacterMessage);
    });

    it.each(['José Ñúñez', '李小龙', "Dee O'Neil", 'محمد علي', 'שרה כהן', 'Sam 🚗 Carter', 'Sam ❤️ 👍🏽'])('keeps %s', (value) => {
      expect(messageOf(schema, value)).toBeUndefined();
    });
  });

  it('refuses them in the search, the dealer username and the chat name too', () => {
    expect(messageOf(listQuerySchema.shape.q, 'ann\u200Blee')).toBe(controlCharacterMessage);
    expect(messageOf(dealerLoginSchema.shape.username, 'dealer\u{E0041}')).toBe(controlCharacterMessage);
    const chat = chatMessageInputSchema.safeParse({ sessionId: 'session_12345', message: 'hi', senderName: 'Sam\u200F' });
    expect(chat.error?.issues[0]).toMatchObject({ path: ['senderName'], message: controlCharacterMessage });
  });

  it('answers an email with one with the email message, as it answers a control character', () => {
    expect(messageOf(emailField, 'sam\u200B@carter.example')).toBe(emailMessage);
    expect(messageOf(emailField, 'sam\u0007@carter.example')).toBe(emailMessage);
  });
});

describe('multi-line text fields (text areas, chat messages, staff notes)', () => {
  const multiline = { ...multilineFields, chatMessage: chatMessageTextSchema, note: leadPatchSchema.shape.note };

  describe.each(Object.entries(multiline))('%s', (_name, schema) => {
    it.each([
      ['an emoji joined by zero-width joiners', 'Hi 👨‍👩‍👧 and 🧑🏽‍💻'],
      ['a flag emoji made of tags', 'From 🏴󠁧󠁢󠁥󠁮󠁧󠁿 and 🏴󠁧󠁢󠁳󠁣󠁴󠁿'],
      ['Persian with a zero-width non-joiner', 'می‌خواهم یک دمو'],
      ['Hebrew with a right-to-left mark', 'שלום\u200F, hello'],
      ['line breaks', 'First line\nSecond line'],
    ])('keeps %s', (_label, value) => {
      expect(messageOf(schema, value)).toBeUndefined();
    });

    it.each([
      ['a zero-width space', 'Hi\u200B there'],
      ['a byte order mark', 'Hi\uFEFF there'],
      ['a word joiner', 'Hi\u2060 there'],
      ['a soft hyphen', 'Hi there\u00AD'],
      ['Unicode tags outside a flag', 'Hi there \u{E0069}\u{E0067}\u{E006E}\u{E006F}\u{E0072}\u{E0065}'],
      ['a flag\'s tags without its flag', 'Hi there \u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}'],
      ['a right-to-left override', 'Hi \u202Eereht'],
    ])('refuses %s with the control-character message', (_label, value) => {
      expect(messageOf(schema, value)).toBe(controlCharacterMessage);
    });
  });
});
