import { brand } from './brand';

/**
 * What a staff display name may be (DESIGN.md 11), in one place for the server and the dashboard's
 * forms. Visitors see a staff reply signed "<name>, Lotwise", and colleagues see the name in the
 * audit log and beside conversations, so a name must not pass for a link, markup, the brand, an
 * official role, or another member. Checked when a name is chosen (an invite, a rename,
 * `admin:create --name`); a name stored before these rules keeps working until it is changed.
 */

/** A link is refused first, with its own message; then anything outside this set. */
const allowedCharacters = /^[\p{L}\p{M}\p{N} .,'’()-]+$/u;
/** A scheme, `www.`, or a dot between a word and two or more letters (`lotwise-billing.com`), read after NFKC. */
const linkLike = /(?:[a-z][a-z0-9+.-]*:\/\/|\bwww\.|[\p{L}\p{N}]\.\p{L}{2,})|(?:https?|mailto|javascript|data):/iu;

export const displayNameLinkMessage = 'Display name cannot contain a link or a web address';
export const displayNameCharactersMessage = "Display name may use only letters, digits, spaces and . , ' - ( )";
export const displayNameLetterMessage = 'Display name must contain a letter';
export const displayNameBrandMessage = `Display name cannot contain "${brand.product}": visitors already see replies signed "Dana, ${brand.product}"`;
export const displayNameReservedMessage = 'Display name cannot be or contain a word such as admin, support, billing, security or verify: visitors could take it for an official notice';
export const displayNameTakenMessage = 'Another team member has this name or one that looks like it: please choose another';

/**
 * Words a name may not hold (as a word, or as the whole name with its separators taken out),
 * compared by skeleton so `Adm1n` and `Ѕupport` count. Role and money words: they are what a
 * phishing signature needs ("Billing", "Security team: verify your card"). Kept short on purpose:
 * a surname such as Billings is a different word and stays allowed.
 */
const reservedWords = [
  'admin',
  'administrator',
  'sysadmin',
  'moderator',
  'official',
  'staff',
  'system',
  'support',
  'helpdesk',
  'billing',
  'payment',
  'payments',
  'invoice',
  'refund',
  'security',
  'verify',
  'verified',
  'verification',
  'noreply',
];

/**
 * Letters that look like Latin ones. Capitals are mapped before lowercasing (Greek Η is an H, its
 * lowercase η an n); digits 0 and 1 and the letter i count as o and l, which they pass for in many fonts.
 */
const capitalLookAlikes: Record<string, string> = {
  Α: 'a', Β: 'b', Ε: 'e', Ζ: 'z', Η: 'h', Ι: 'l', Κ: 'k', Μ: 'm', Ν: 'n', Ο: 'o', Ρ: 'p', Τ: 't', Υ: 'y', Χ: 'x',
  А: 'a', В: 'b', Е: 'e', К: 'k', М: 'm', Н: 'h', О: 'o', Р: 'p', С: 'c', Т: 't', Х: 'x', У: 'y', І: 'l', Ј: 'j', Ѕ: 's', Ԁ: 'd', Ԛ: 'q', Ԝ: 'w',
};
const smallLookAlikes: Record<string, string> = {
  а: 'a', е: 'e', о: 'o', р: 'p', с: 'c', х: 'x', у: 'y', і: 'l', ј: 'j', ѕ: 's', ԁ: 'd', һ: 'h', ӏ: 'l', ԛ: 'q', ԝ: 'w', к: 'k', м: 'm', т: 't',
  α: 'a', ο: 'o', ρ: 'p', ν: 'v', τ: 't', ι: 'l', κ: 'k', υ: 'u', χ: 'x', ε: 'e', ω: 'w', ς: 'c',
  ı: 'l', ɩ: 'l', ǀ: 'l', ɑ: 'a', ɡ: 'g', ſ: 's', ß: 'ss',
  '0': 'o', '1': 'l', i: 'l',
};

/** The name as it reads: NFKC, look-alikes mapped, lower case, accents and invisible characters gone; words kept apart by one space. */
function readingOf(name: string): string {
  const mappedCapitals = [...name.normalize('NFKC')].map((character) => capitalLookAlikes[character] ?? character).join('');
  const plain = mappedCapitals.toLowerCase().normalize('NFD').replace(/\p{M}/gu, '');
  const mapped = [...plain].map((character) => smallLookAlikes[character] ?? character).join('');
  return mapped
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * The name's skeleton: two names with the same skeleton look alike (`Dana`, `DANA`, `Dаna` with a
 * Cyrillic а, `D a n a`, `Dána`). Display names are unique in the team by skeleton.
 */
export function displayNameSkeleton(name: string): string {
  return readingOf(name).replace(/ /g, '');
}

const brandSkeleton = displayNameSkeleton(brand.product);
const reservedSkeletons = new Set(reservedWords.map(displayNameSkeleton));

/** What is wrong with a display name chosen now (already trimmed, length checked), apart from another member's; undefined when nothing. */
export function displayNameProblem(name: string): string | undefined {
  if (linkLike.test(name.normalize('NFKC'))) return displayNameLinkMessage;
  if (!allowedCharacters.test(name)) return displayNameCharactersMessage;
  if (!/\p{L}/u.test(name)) return displayNameLetterMessage;
  const skeleton = displayNameSkeleton(name);
  if (skeleton.includes(brandSkeleton)) return displayNameBrandMessage;
  if (reservedSkeletons.has(skeleton) || readingOf(name).split(' ').some((word) => reservedSkeletons.has(word))) return displayNameReservedMessage;
  return undefined;
}

/** Whether `name` is, or looks like, one of `others` (the names the rest of the team shows). */
export function looksLikeAnotherName(name: string, others: Iterable<string>): boolean {
  const skeleton = displayNameSkeleton(name);
  for (const other of others) if (displayNameSkeleton(other) === skeleton) return true;
  return false;
}
