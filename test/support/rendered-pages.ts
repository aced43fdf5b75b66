import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type WebPagesManifest, webPagesManifestFile } from '../../api/contract/web-pages';
import { cleanUpLater } from './cleanup';

/** A public page as the build writes it: its path, the file under the web root and its HTML. */
export interface RenderedPage {
  path: string;
  file: string;
  html: string;
}

interface ServerEntry {
  renderPage(location: string): Promise<string>;
  siteRoutes: readonly { path: string; kind: 'public' | 'private' }[];
  documentTitle(route: { path: string }): string;
}

/**
 * Every public page of the site, rendered by web/entry-server.tsx as the build's prerender does, in a
 * document with the page's <title> (the build's template adds only the head's links and scripts): the
 * real pages, in a second rather than a full `vite build`.
 */
export async function renderPublicPages(): Promise<RenderedPage[]> {
  const entry = (await import('../../web/entry-server')) as ServerEntry;
  const pages: RenderedPage[] = [];
  for (const route of entry.siteRoutes.filter((item) => item.kind === 'public')) {
    const body = (await entry.renderPage(route.path)).replace(/^<title>[^<]*<\/title>/, '');
    const html = `<!doctype html><html lang="en"><head><title>${entry.documentTitle(route)}</title></head><body><div id="root">${body}</div></body></html>`;
    pages.push({ path: route.path, file: `pages/${route.path === '/' ? 'index' : route.path.slice(1)}.html`, html });
  }
  return pages;
}

/** A built web root (dist/web's layout: pages/*.html and the page map) holding these pages; removed later. */
export function writeWebRoot(pages: readonly RenderedPage[]): string {
  const webRoot = mkdtempSync(join(tmpdir(), 'lotwise-web-'));
  cleanUpLater(() => rmSync(webRoot, { recursive: true, force: true }));
  rewriteWebRoot(webRoot, pages);
  return webRoot;
}

/** Lays these pages out in `webRoot` as the build would, in place of the ones before. */
export function rewriteWebRoot(webRoot: string, pages: readonly RenderedPage[]): void {
  mkdirSync(join(webRoot, 'pages'), { recursive: true });
  writeFileSync(join(webRoot, 'index.html'), '<!doctype html><div id="root"></div>');
  for (const page of pages) writeFileSync(join(webRoot, page.file), page.html);
  const manifest: WebPagesManifest = { pages: pages.map(({ path, file }) => ({ path, file })), clientOnly: [], notFound: pages[0]?.file ?? '', documents: [] };
  writeFileSync(join(webRoot, webPagesManifestFile), JSON.stringify(manifest));
}

/** The text a reader sees in a page's HTML: tags dropped, React's escapes undone, whitespace collapsed. */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style|svg)\b[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}
