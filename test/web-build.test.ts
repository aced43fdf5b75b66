// @vitest-environment jsdom
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { publicUrlPlaceholder, webPagesManifestFile, webPagesManifestSchema } from '../api/contract/web-pages';
import { requireFreshBuild } from '../scripts/build-freshness';
import { documentTitle, siteRoutes, supportFaqs } from '../web/features/marketing/routes';

/**
 * The production web build (`vite build`, with scripts/vite/prerender.ts), read from dist/web: the one
 * build of `npm run build` (npm ci's, or npm test's when the source is newer), never built here.
 * Each public page has its own HTML with its head and content. The site's address is left as a
 * placeholder the server fills in at start (api/web-pages.ts), whatever PUBLIC_URL the build saw.
 */
const publicUrl = publicUrlPlaceholder;

/** A line of each public page's own content, there without JavaScript. */
const pageText: Record<string, string> = {
  '/': 'The AI-powered dealer website that sells more cars',
  '/about': 'Helping independent dealers win online',
  '/contact': 'Send us a Message',
  '/support': 'Frequently asked questions',
  '/get-started': 'Launch your AI-powered dealer website',
  '/privacy-policy': 'Privacy Policy',
  '/terms-of-service': 'Terms of Service',
  '/cookie-policy': 'Cookie Policy',
};

/** Labels of each page's form, there without JavaScript. */
const formLabels: Record<string, string[]> = {
  '/contact': ['Full Name', 'Email Address', 'Message'],
  '/support': ['Subject'],
  '/get-started': ['Dealership Name'],
};

describe('web build', () => {
  const outDir = 'dist/web';
  const read = (file: string) => readFileSync(join(outDir, file), 'utf8');
  const parse = (file: string) => new DOMParser().parseFromString(read(file), 'text/html');
  const meta = (doc: Document, selector: string) => doc.querySelector(`meta[${selector}]`)?.getAttribute('content');

  beforeAll(() => requireFreshBuild('web'));

  const publicRoutes = siteRoutes.filter((route) => route.kind === 'public');

  it('covers every public page of the router', () => {
    expect(publicRoutes.map((route) => route.path).sort()).toEqual(Object.keys(pageText).sort());
  });

  it.each(publicRoutes.map((route) => [route.path, route] as const))('writes %s with its own head and content', (path, route) => {
    const manifest = webPagesManifestSchema.parse(JSON.parse(read(webPagesManifestFile)));
    const file = manifest.pages.find((page) => page.path === path)?.file;
    expect(file).toBeDefined();
    const doc = parse(file!);

    expect(doc.title).toBe(documentTitle(route));
    expect(doc.querySelectorAll('title')).toHaveLength(1);
    expect(meta(doc, 'name="description"')).toBe(route.description);
    expect(doc.querySelector('link[rel="canonical"]')?.getAttribute('href')).toBe(`${publicUrl}${path}`);
    expect(meta(doc, 'property="og:title"')).toBe(documentTitle(route));
    expect(meta(doc, 'property="og:description"')).toBe(route.description);
    expect(meta(doc, 'property="og:url"')).toBe(`${publicUrl}${path}`);
    expect(meta(doc, 'property="og:image"')).toBe(`${publicUrl}/og-image.png`);
    expect(meta(doc, 'name="twitter:card"')).toBe('summary_large_image');
    expect(meta(doc, 'name="robots"')).toBeUndefined();

    const jsonLd = [...doc.querySelectorAll('script[type="application/ld+json"]')].map((script) => JSON.parse(script.textContent ?? '') as { '@type': string });
    expect(jsonLd.map((data) => data['@type'])).toEqual(route.faq ? ['Organization', 'FAQPage'] : ['Organization']);

    // The content, links and labels are in the HTML, not left to JavaScript.
    const root = doc.getElementById('root')!;
    expect(root.textContent).toContain(pageText[path]);
    expect(doc.querySelector('h1')).not.toBeNull();
    expect(root.querySelector('a[href="/contact"]')).not.toBeNull();
    const labels = [...root.querySelectorAll('label')].map((label) => label.textContent ?? '');
    for (const label of formLabels[path] ?? []) expect(labels.some((text) => text.startsWith(label)), label).toBe(true);
    // No inline script: the CSP (script-src 'self') would refuse it.
    const scripts = [...doc.querySelectorAll('script')].filter((script) => script.getAttribute('type') !== 'application/ld+json');
    expect(scripts.every((script) => script.hasAttribute('src'))).toBe(true);
  });

  it('gives the support page its questions as FAQPage data', () => {
    const doc = parse('pages/support.html');
    const faq = [...doc.querySelectorAll('script[type="application/ld+json"]')]
      .map((script) => JSON.parse(script.textContent ?? '') as { '@type': string; mainEntity?: { name: string; acceptedAnswer: { text: string } }[] })
      .find((data) => data['@type'] === 'FAQPage');
    expect(faq?.mainEntity?.map((item) => [item.name, item.acceptedAnswer.text])).toEqual(supportFaqs.map((item) => [item.question, item.answer]));
    for (const item of supportFaqs) expect(doc.getElementById('root')!.textContent).toContain(item.question);
  });

  it('writes the 404 page noindex, speaking to the visitor, and the SPA shell noindex and empty', () => {
    const notFound = parse('pages/404.html');
    expect(notFound.title).toBe('Page Not Found · Lotwise');
    expect(meta(notFound, 'name="robots"')).toBe('noindex');
    expect(notFound.querySelector('link[rel="canonical"]')).toBeNull();
    expect(notFound.querySelector('h1')?.textContent).toBe('404 Page Not Found');
    expect(notFound.getElementById('root')!.textContent).toContain("This page doesn't exist");
    expect(notFound.querySelector('main a[href="/"]')).not.toBeNull();
    expect(notFound.querySelector('main a[href="/contact"]')).not.toBeNull();

    const shell = parse('index.html');
    expect(meta(shell, 'name="robots"')).toBe('noindex');
    expect(shell.getElementById('root')!.childElementCount).toBe(0);
  });

  it('keeps the home page under its first-load JavaScript budget: 120 KB gzip (DESIGN.md section 8)', () => {
    // What the prerendered home page loads before anything is pressed: its entry script, the chunks it
    // preloads, and what those import statically. `import("./x.js")` (the widget, dialogs) loads later.
    const doc = parse('pages/index.html');
    const queue = [...doc.querySelectorAll('script[src], link[rel="modulepreload"]')].map((element) => element.getAttribute('src') ?? element.getAttribute('href')!);
    const firstLoad = new Set<string>();
    while (queue.length > 0) {
      const path = queue.pop()!;
      if (firstLoad.has(path)) continue;
      firstLoad.add(path);
      for (const [, chunk] of read(path.slice(1)).matchAll(/(?:from|import)\s*["']\.\/([^"']+\.js)["']/g)) queue.push(`/assets/${chunk}`);
    }
    expect([...firstLoad].some((path) => path.startsWith('/assets/home-'))).toBe(true);
    const gzipKb = [...firstLoad].reduce((sum, path) => sum + gzipSync(readFileSync(join(outDir, path.slice(1))), { level: 9 }).length, 0) / 1024;
    expect(gzipKb).toBeLessThan(120);
  });

  it('writes robots.txt and sitemap.xml for the server to fill in, and the 1200x630 preview image', () => {
    const manifest = webPagesManifestSchema.parse(JSON.parse(read(webPagesManifestFile)));
    expect(manifest.documents.map((document) => document.path)).toEqual(['/robots.txt', '/sitemap.xml']);
    expect(read('pages/robots.txt')).toContain(`Sitemap: ${publicUrl}/sitemap.xml`);
    expect(read('pages/robots.txt')).toContain('Disallow: /admin\n');
    const locations = [...read('pages/sitemap.xml').matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(publicRoutes.map((route) => `${publicUrl}${route.path}`));
    // No address but the placeholder: not the default PUBLIC_URL, nor one the build's environment had. The server's, read at start, goes in.
    const buildTimeUrls = ['http://localhost:3000', process.env.PUBLIC_URL].filter((url): url is string => Boolean(url));
    for (const file of [...manifest.pages.map((page) => page.file), 'pages/robots.txt', 'pages/sitemap.xml']) {
      for (const url of buildTimeUrls) expect(read(file)).not.toContain(url);
    }

    const png = readFileSync(join(outDir, 'og-image.png'));
    // The PNG header's IHDR chunk: width and height, big-endian, at bytes 16 and 20.
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1200, 630]);
    // The pages are compressed by the server once their address is in; the bundles by the build.
    expect(existsSync(join(outDir, 'pages', 'index.html.br'))).toBe(false);
    expect(readdirSync(join(outDir, 'assets')).some((file) => file.endsWith('.js.br'))).toBe(true);
  });
});
