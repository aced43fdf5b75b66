import { type DefaultTreeAdapterMap, parse } from 'parse5';
import { brand } from '../../contract/brand';

type Node = DefaultTreeAdapterMap['childNode'] | DefaultTreeAdapterMap['document'];
type Element = DefaultTreeAdapterMap['element'];

/** A prerendered public page: its path and the HTML the build wrote for it. */
export interface PageInput {
  path: string;
  html: string;
}

/** One quotable piece of our content, as the index holds it. */
export interface Passage {
  /** `page`: a section of a public page (the support FAQ is one); `canned`: a reply an admin marked public. */
  source: 'page' | 'canned';
  /** The page's name ("Support Center"; the home page is "Home"), or the canned reply's title. */
  pageTitle: string;
  /** The page's path; null for a canned reply, which has no page. */
  path: string | null;
  /** The heading of the section the text sits under (an FAQ's question), as the page shows it. */
  heading: string;
  /** The headings above that one, outermost first, less the page's h1 ("Simple pricing..." above "Starter"). */
  context: string;
  /** The id to link to: the heading's own, else its section's; null when neither has one. */
  anchor: string | null;
  /** Where the link goes: path#anchor, else a text fragment of the heading (path#:~:text=...). */
  href: string | null;
  /** Verbatim text of the page, at most ~300 characters, whole sentences; blocks end with a newline. */
  text: string;
}

/** The longest passage quoted; a sentence longer than this is cut at a clause, marked with "…". */
export const passageMaxChars = 300;

/** Never part of a passage: the site's chrome, form controls (a form's own text stays), and what is hidden from readers. */
const skippedTags = new Set(['header', 'footer', 'nav', 'button', 'label', 'select', 'option', 'input', 'textarea', 'script', 'style', 'template', 'svg', 'noscript', 'dialog']);
/** Text inside these runs on in one line with its neighbours; every other element breaks a block. */
const inlineTags = new Set(['a', 'span', 'strong', 'em', 'b', 'i', 'u', 'code', 'abbr', 'time', 'small', 'sup', 'sub', 'mark', 'q', 'cite', 'br', 'wbr', 'data']);
const headingTags = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'dt']);

const attribute = (element: Element, name: string) => element.attrs.find((item) => item.name === name)?.value;
const isElement = (node: Node): node is Element => 'tagName' in node;
const childrenOf = (node: Node): Node[] => ('childNodes' in node ? node.childNodes : []);
const collapse = (text: string) => text.replace(/\s+/g, ' ').trim();

function hidden(element: Element): boolean {
  return skippedTags.has(element.tagName) || attribute(element, 'aria-hidden') === 'true' || attribute(element, 'hidden') !== undefined;
}

function find(node: Node, test: (element: Element) => boolean): Element | null {
  if (isElement(node) && test(node)) return node;
  for (const child of childrenOf(node)) {
    const found = find(child, test);
    if (found) return found;
  }
  return null;
}

function textOf(node: Node): string {
  if (node.nodeName === '#text' && 'value' in node) return node.value;
  if (isElement(node) && hidden(node)) return '';
  return childrenOf(node).map(textOf).join('');
}

function containsHeading(node: Node): boolean {
  return childrenOf(node).some((child) => isElement(child) && !hidden(child) && (headingTags.has(child.tagName) || containsHeading(child)));
}

interface Section {
  heading: string;
  context: string;
  anchor: string | null;
  blocks: string[];
}

/** The text fragment of a heading (the URL Fragment Text Directive: `-`, `,` and `&` escaped too). */
function textFragment(heading: string): string {
  return `:~:text=${encodeURIComponent(heading).replace(/-/g, '%2D').replace(/,/g, '%2C')}`;
}

/**
 * Splits a page's main content into sections: each heading (an FAQ's `dt` too) with the text blocks
 * under it. A `section`, `article` or list item holding a heading starts a new section, so a card's
 * eyebrow ("Most Popular") goes with the card's own heading, not the one before.
 */
function sectionsOf(main: Element): Section[] {
  const sections: Section[] = [];
  let current: Section | null = null;
  const sectionIds: string[] = [];
  // The headings met so far that are still open (an h3 closes at the next h3, h2 or h1), with their level.
  const outline: { level: number; text: string }[] = [];
  const open = () => {
    if (current && current.heading && current.blocks.length > 0) sections.push(current);
    current = { heading: '', context: '', anchor: sectionIds.at(-1) ?? null, blocks: [] };
    return current;
  };
  let inline: string[] = [];
  // A run that is nothing but links to our own pages ("Get Started", "Talk to our team") is a call to
  // action, not content; a tel: or mailto: link on its own (the phone number) is content.
  let onlyPageLinks = true;
  const flush = () => {
    const text = collapse(inline.join(''));
    const callToAction = onlyPageLinks;
    inline = [];
    onlyPageLinks = true;
    // A bare step number ("1" before "Submit Application") is a list's decoration.
    if (text && !callToAction && !/^\d{1,2}$/.test(text)) (current ?? open()).blocks.push(text);
  };
  const walk = (node: Node) => {
    if (!isElement(node)) {
      if (node.nodeName === '#text' && 'value' in node) {
        inline.push(node.value);
        if (node.value.trim()) onlyPageLinks = false;
      }
      return;
    }
    if (hidden(node)) return;
    if (inlineTags.has(node.tagName)) {
      const text = node.tagName === 'br' ? ' ' : textOf(node);
      inline.push(text);
      const pageLink = node.tagName === 'a' && /^[/#]/.test(attribute(node, 'href') ?? '');
      if (text.trim() && !pageLink) onlyPageLinks = false;
      return;
    }
    flush();
    if (headingTags.has(node.tagName)) {
      const heading = collapse(textOf(node));
      if (!heading) return;
      const section = current && !current.heading ? current : open();
      const level = node.tagName === 'dt' ? 7 : Number(node.tagName.slice(1));
      while ((outline.at(-1)?.level ?? 0) >= level) outline.pop();
      section.context = outline.filter((item) => item.level > 1).map((item) => item.text).join('\n');
      outline.push({ level, text: heading });
      section.heading = heading;
      section.anchor = attribute(node, 'id') ?? sectionIds.at(-1) ?? null;
      return;
    }
    const id = attribute(node, 'id');
    const sectioning = ['section', 'article', 'li'].includes(node.tagName) && containsHeading(node);
    if (sectioning) {
      if (id) sectionIds.push(id);
      open();
    }
    for (const child of childrenOf(node)) walk(child);
    flush();
    if (sectioning && id) sectionIds.pop();
  };
  for (const child of childrenOf(main)) walk(child);
  flush();
  open();
  return sections;
}

/** The sentences of a block; one longer than the limit is cut at clause boundaries, marked "…". */
function sentencesOf(block: string): string[] {
  const sentences = block.split(/(?<=[.!?])\s+(?=["'(]?[A-Z0-9$])/);
  return sentences.flatMap((sentence) => {
    const pieces: string[] = [];
    let rest = sentence;
    while (rest.length > passageMaxChars) {
      const window = rest.slice(0, passageMaxChars - 1);
      const cut = Math.max(window.lastIndexOf('; '), window.lastIndexOf(': '), window.lastIndexOf(', '));
      const at = cut > passageMaxChars / 3 ? cut + 1 : window.lastIndexOf(' ');
      pieces.push(`${pieces.length ? '…' : ''}${rest.slice(0, at).trim()}…`);
      rest = rest.slice(at).trim();
    }
    pieces.push(pieces.length ? `…${rest}` : rest);
    return pieces;
  });
}

/** Consecutive sentences of a section packed into passages of at most `passageMaxChars`. */
function chunksOf(blocks: readonly string[]): string[] {
  const chunks: string[] = [];
  let chunk = '';
  for (const block of blocks) {
    sentencesOf(block).forEach((sentence, index) => {
      const joiner = chunk === '' ? '' : index === 0 ? '\n' : ' ';
      if (chunk !== '' && chunk.length + joiner.length + sentence.length > passageMaxChars) {
        chunks.push(chunk);
        chunk = sentence;
      } else {
        chunk += joiner + sentence;
      }
    });
  }
  if (chunk) chunks.push(chunk);
  return chunks;
}

/** The page's own name: its <title> less the brand; the home page (whose title is the brand's) is "Home". */
function pageTitleOf(document: Node, path: string): string {
  const title = collapse(textOf(find(document, (element) => element.tagName === 'title') ?? document));
  if (path === '/' || title.startsWith(brand.product)) return 'Home';
  return title.replace(new RegExp(`\\s*[·|–-]\\s*${brand.product}$`), '') || 'Home';
}

/** The passages of one prerendered page: the sections of its `<main>`, each cut into quotable pieces. */
export function passagesOfPage(page: PageInput): Passage[] {
  const document = parse(page.html);
  const main = find(document, (element) => element.tagName === 'main') ?? find(document, (element) => element.tagName === 'body');
  if (!main) return [];
  const pageTitle = pageTitleOf(document, page.path);
  return sectionsOf(main).flatMap((section) =>
    chunksOf(section.blocks).map((text) => ({
      source: 'page' as const,
      pageTitle,
      path: page.path,
      heading: section.heading,
      context: section.context,
      anchor: section.anchor,
      href: `${page.path}#${section.anchor ?? textFragment(section.heading)}`,
      text,
    })),
  );
}

/** A canned reply an admin marked public: its title and text (the chat module passes these in). */
export interface PublicCannedReply {
  title: string;
  body: string;
}

/**
 * The passages of the public canned replies. One with a `{name}`/`{email}` placeholder is written to a
 * person, not for anyone who asks: it is left out rather than quoted with a hole in it.
 */
export function passagesOfCannedReplies(replies: readonly PublicCannedReply[]): Passage[] {
  return replies
    .filter((reply) => !/\{(name|email)\}/.test(reply.body) && collapse(reply.title) && collapse(reply.body))
    .flatMap((reply) =>
      chunksOf(reply.body.split(/\n+/).map(collapse).filter(Boolean)).map((text) => ({
        source: 'canned' as const,
        pageTitle: collapse(reply.title),
        path: null,
        heading: collapse(reply.title),
        context: '',
        anchor: null,
        href: null,
        text,
      })),
    );
}
