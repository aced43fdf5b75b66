/** A piece of a chat message: plain text, or a web address to show as a link. */
export type TextPart = { kind: 'text'; text: string } | { kind: 'link'; text: string; href: string };

/** Where an address may start: a scheme of the web, or `www.` (a dealer's site as people type it). */
const addressStart = /https?:\/\/|www\./giu;
/** An address runs to the next space or to a character that cannot stand unescaped in one. */
const addressRun = /[^\s<>"`{}|\\^]*/uy;
/** A start glued to these is inside another word, path or email address (`xhttp://`, `me@www.`): no link. */
const gluedBefore = /[\p{L}\p{N}@._/:+-]/u;
/** Punctuation that ends a sentence rather than the address, when it ends the address. */
const trailingPunctuation = /[.,;:!?'’”…*]$/u;
const closerOf: Record<string, string> = { ')': '(', ']': '[' };

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/** The address without the sentence's punctuation after it; a closing bracket opened inside it stays. */
function trimEnd(candidate: string): string {
  let address = candidate;
  for (;;) {
    const last = address.slice(-1);
    const opener = closerOf[last];
    if (trailingPunctuation.test(address)) address = address.slice(0, -1);
    else if (opener && count(address, last) > count(address, opener)) address = address.slice(0, -1);
    else return address;
  }
}

/** The address to open for what was typed, or null when it is not an http(s) address with a host. */
function hrefOf(typed: string): string | null {
  const withScheme = /^www\./iu.test(typed) ? `https://${typed}` : typed;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // `www.` alone, or `www.x` with nothing after a dot, is a word, not a site.
  if (withScheme !== typed && !/^www\.[^.]+\.[^.]/iu.test(url.hostname)) return null;
  return /[\p{L}\p{N}]/u.test(url.hostname) ? url.href : null;
}

/**
 * Splits a message into text and http(s) links, each link showing the address exactly as typed.
 * Only `http://`, `https://` and `www.` addresses become links, so no other scheme (`javascript:`,
 * `data:`) ever does; the caller renders the parts as text nodes and anchors, never as HTML.
 */
export function splitLinks(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let plainFrom = 0;
  addressStart.lastIndex = 0;
  for (let match = addressStart.exec(text); match; match = addressStart.exec(text)) {
    const start = match.index;
    addressRun.lastIndex = start;
    const typed = trimEnd(addressRun.exec(text)?.[0] ?? '');
    const href = start > 0 && gluedBefore.test(text[start - 1] ?? '') ? null : hrefOf(typed);
    if (!href) {
      // Not a link: look for the next start after this one's scheme, not inside its run.
      addressStart.lastIndex = start + match[0].length;
      continue;
    }
    if (start > plainFrom) parts.push({ kind: 'text', text: text.slice(plainFrom, start) });
    parts.push({ kind: 'link', text: typed, href });
    plainFrom = start + typed.length;
    addressStart.lastIndex = plainFrom;
  }
  if (plainFrom < text.length) parts.push({ kind: 'text', text: text.slice(plainFrom) });
  return parts;
}
