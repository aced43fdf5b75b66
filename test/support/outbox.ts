import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface OutboxMail {
  file: string;
  headers: Record<string, string>;
  /** The text body, quoted-printable decoded. */
  text: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** Every `.eml` the mailer wrote to `<dataDir>/outbox`, oldest first. */
export async function readOutbox(dataDir: string): Promise<OutboxMail[]> {
  const folder = join(dataDir, 'outbox');
  let files: string[];
  try {
    files = (await readdir(folder)).filter((name) => name.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(
    files.map(async (file) => {
      const raw = await readFile(join(folder, file), 'utf8');
      const split = raw.indexOf('\n\n');
      const headers: Record<string, string> = {};
      for (const line of raw.slice(0, split).replace(/\n[ \t]+/g, ' ').split('\n')) {
        const colon = line.indexOf(':');
        if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
      }
      const body = raw.slice(split + 2);
      const text = /quoted-printable/i.test(headers['content-transfer-encoding'] ?? '') ? decodeQuotedPrintable(body) : body;
      return { file, headers, text };
    }),
  );
}

const encodedWord = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/;

/** The bytes of one RFC 2047 encoded-word's text (B: base64; Q: quoted-printable with `_` for space). */
function encodedWordBytes(encoding: string, text: string): Buffer {
  if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64');
  const latin1 = text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(latin1, 'latin1');
}

/**
 * A header as a mail client shows it: every RFC 2047 encoded-word decoded once (UTF-8), the space
 * between two adjacent encoded-words dropped, as RFC 2047 section 6.2 says.
 */
export function decodeHeader(value: string): string {
  const parts: Buffer[] = [];
  let rest = value;
  let afterWord = false;
  for (let match = encodedWord.exec(rest); match; match = encodedWord.exec(rest)) {
    const between = rest.slice(0, match.index);
    if (!(afterWord && /^\s*$/.test(between))) parts.push(Buffer.from(between, 'utf8'));
    parts.push(encodedWordBytes(match[2]!, match[3]!));
    rest = rest.slice(match.index + match[0].length);
    afterWord = true;
  }
  parts.push(Buffer.from(rest, 'utf8'));
  return Buffer.concat(parts).toString('utf8');
}
