import { describe, expect, it } from 'vitest';
import { splitLinks, type TextPart } from './links';

const text = (value: string): TextPart => ({ kind: 'text', text: value });
const link = (value: string, href: string): TextPart => ({ kind: 'link', text: value, href });

/** The addresses found, as typed. */
const linksIn = (message: string) => splitLinks(message).flatMap((part) => (part.kind === 'link' ? [part.text] : []));

describe('splitLinks', () => {
  it('finds http and https addresses in text, as typed, with the text around them kept', () => {
    expect(splitLinks('See https://lotwise.example/pricing?plan=pro#faq and http://old.example too')).toEqual([
      text('See '),
      link('https://lotwise.example/pricing?plan=pro#faq', 'https://lotwise.example/pricing?plan=pro#faq'),
      text(' and '),
      link('http://old.example', 'http://old.example/'),
      text(' too'),
    ]);
    expect(splitLinks('HTTPS://Lotwise.Example/A')).toEqual([link('HTTPS://Lotwise.Example/A', 'https://lotwise.example/A')]);
    expect(splitLinks('http://localhost:3000/admin')).toEqual([link('http://localhost:3000/admin', 'http://localhost:3000/admin')]);
  });

  it('leaves a message without an address as one text part, and an empty one as none', () => {
    expect(splitLinks('Do you do financing? Call 555-0100.')).toEqual([text('Do you do financing? Call 555-0100.')]);
    expect(splitLinks('')).toEqual([]);
  });

  it('links www. addresses to https, showing them as typed', () => {
    expect(splitLinks('our lot: www.joesauto.example.')).toEqual([text('our lot: '), link('www.joesauto.example', 'https://www.joesauto.example/'), text('.')]);
    expect(linksIn('WWW.JoesAuto.example/inventory')).toEqual(['WWW.JoesAuto.example/inventory']);
    // Not a site: www. alone, or without a dot after it.
    expect(linksIn('www. www.example www.x.')).toEqual([]);
  });

  it('leaves the sentence punctuation after an address out of the link', () => {
    expect(linksIn('Go to https://a.example/x.')).toEqual(['https://a.example/x']);
    expect(linksIn('https://a.example, https://b.example; https://c.example: https://d.example! https://e.example? ok')).toEqual([
      'https://a.example',
      'https://b.example',
      'https://c.example',
      'https://d.example',
      'https://e.example',
    ]);
    expect(linksIn("'https://a.example/q?x=1'...")).toEqual(['https://a.example/q?x=1']);
    expect(linksIn('https://a.example/v1.2/file.pdf')).toEqual(['https://a.example/v1.2/file.pdf']);
  });

  it('keeps a closing bracket opened inside the address, and drops one opened before it', () => {
    expect(splitLinks('(see https://a.example/page)')).toEqual([text('(see '), link('https://a.example/page', 'https://a.example/page'), text(')')]);
    expect(linksIn('(https://en.wikipedia.example/wiki/Lot_(car)).')).toEqual(['https://en.wikipedia.example/wiki/Lot_(car)']);
    expect(linksIn('[https://a.example/list[1]]')).toEqual(['https://a.example/list[1]']);
  });

  it('ends an address at a space or a character no address holds unescaped', () => {
    expect(linksIn('<https://a.example/x>')).toEqual(['https://a.example/x']);
    expect(linksIn('"https://a.example/x"')).toEqual(['https://a.example/x']);
    expect(linksIn('https://a.example/one\nhttps://b.example/two\thttps://c.example')).toEqual([
      'https://a.example/one',
      'https://b.example/two',
      'https://c.example',
    ]);
  });

  it('never links another scheme, a bare scheme or an address glued to a word', () => {
    for (const message of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(document.cookie)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'ftp://files.example/x',
      'mailto:pat@dealer.example',
      'file:///etc/passwd',
      'http://',
      'https:// a.example',
      'https://',
      'xhttp://a.example',
      'pat@www.dealer.example',
      'docs.www.example.com',
      'https://javascript:alert(1)',
    ]) {
      expect(linksIn(message), message).toEqual([]);
    }
  });

  it('gives an href whose scheme is http or https for every link it finds', () => {
    const parts = splitLinks('a http://x.example b https://y.example/%20z c www.w.example/ü javascript://x.example');
    const hrefs = parts.flatMap((part) => (part.kind === 'link' ? [part.href] : []));
    expect(hrefs).toHaveLength(3);
    for (const href of hrefs) expect(new URL(href).protocol).toMatch(/^https?:$/);
  });

  it('puts the message back together from its parts, character for character', () => {
    const message = 'Hi (https://a.example/x_(y)), www.b.example! <http://c.example> javascript:alert(1) end.';
    expect(
      splitLinks(message)
        .map((part) => part.text)
        .join(''),
    ).toBe(message);
  });
});
