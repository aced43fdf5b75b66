import { describe, expect, it } from 'vitest';
import { staffDisplayNameSchema } from './auth';
import {
  displayNameBrandMessage,
  displayNameCharactersMessage,
  displayNameLetterMessage,
  displayNameLinkMessage,
  displayNameReservedMessage,
  displayNameSkeleton,
  looksLikeAnotherName,
} from './display-name';
import { controlCharacterMessage } from './common';

function messageOf(name: string): string | undefined {
  const parsed = staffDisplayNameSchema.safeParse(name);
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

describe('a display name chosen now', () => {
  it.each(['Dana', 'Dana R.', 'Sam Ortiz', "Seán O’Brien", 'Zoë', 'Mary-Jane (nights)', 'José Müller', '李小龍', 'Billings', 'The Boss'])('takes %s', (name) => {
    expect(messageOf(name)).toBeUndefined();
  });

  it.each([
    ['Lotwise Billing - verify your card at https://lotwise-billing.example', displayNameLinkMessage],
    ['see lotwise-help.com', displayNameLinkMessage],
    ['www.example', displayNameLinkMessage],
    ['Dana (lotwise．help)', displayNameLinkMessage],
    ['<b>Dana</b>', displayNameCharactersMessage],
    ['Dana [x](y)', displayNameCharactersMessage],
    ['dana@example', displayNameCharactersMessage],
    ['Dana 🚗', displayNameCharactersMessage],
    ['Da\u200Bna', controlCharacterMessage],
    ['Da\u0007na', controlCharacterMessage],
    ['Dana\u202Eevil', controlCharacterMessage],
    ['...', displayNameLetterMessage],
    ['007', displayNameLetterMessage],
    ['Lotwise', displayNameBrandMessage],
    ['L0TW1SE team', displayNameBrandMessage],
    ['Lоtwisе', displayNameBrandMessage],
    ['admin', displayNameReservedMessage],
    ['Dana from Support', displayNameReservedMessage],
    ['Adm1n', displayNameReservedMessage],
    ['A.d.m.i.n', displayNameReservedMessage],
    ['Ѕеcurity', displayNameReservedMessage],
    ['𝐁𝐢𝐥𝐥𝐢𝐧𝐠', displayNameReservedMessage],
  ])('refuses %s: %s', (name, message) => {
    expect(messageOf(name)).toBe(message);
  });
});

describe('look-alike names', () => {
  it('gives one skeleton to names that read the same', () => {
    const dana = displayNameSkeleton('Dana');
    for (const name of ['DANA', 'dana', 'Dаna', 'D a n a', 'Dána', 'Ｄａｎａ', 'Da-na', 'Dana\u200B']) expect(displayNameSkeleton(name)).toBe(dana);
    expect(displayNameSkeleton('Ol1ie')).toBe(displayNameSkeleton('0llie'));
    expect(displayNameSkeleton('Arnie')).toBe(displayNameSkeleton('Amie'));
    expect(displayNameSkeleton('ΗΑΝΑ')).toBe(displayNameSkeleton('Hana'));
    expect(displayNameSkeleton('Dana')).not.toBe(displayNameSkeleton('Dan'));
  });

  it('compares with the rest of the team', () => {
    expect(looksLikeAnotherName('Sаm', ['Dana', 'Sam'])).toBe(true);
    expect(looksLikeAnotherName('Sam Ortiz', ['Dana', 'Sam'])).toBe(false);
  });
});
