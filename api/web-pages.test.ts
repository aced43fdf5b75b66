import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { freshDatabaseEnv } from '../test/support/helper';
import { robotsTxt, sitemapXml } from '../scripts/vite/prerender';
import { siteRoutes } from '../web/features/marketing/routes';
import { buildApp } from './app';
import { ConfigError, parseConfig } from './config';
import { publicUrlPlaceholder, type WebPagesManifest, webPagesManifestFile } from './contract/web-pages';

const publicUrl = 'https://www.lotwise.example';

/**
 * The server answers each page path as the build laid it out (scripts/vite/prerender.ts writes these
 * files from the route list, with a placeholder for the site's address; here the same generators write
 * robots.txt and sitemap.xml, and a page map of three pages stands for the build's).
 */
describe('web pages', () => {
  let app: FastifyInstance;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lotwise-pages-'));
    const webRoot = join(dir, 'web');
    mkdirSync(join(webRoot, 'pages'), { recursive: true });
    const page = (text: string) =>
      `<!doctype html><html><head><title>${text}</title><link rel="canonical" href="${publicUrlPlaceholder}/${text.length}" />` +
      `<script type="application/ld+json">{"url":"${publicUrlPlaceholder}/"}</script></head><body><div id="root"><h1>${text}</h1></div></body></html>`;
    writeFileSync(join(webRoot, 'index.html'), '<!doctype html><meta name="robots" content="noindex" /><div id="root"></div>');
    writeFileSync(join(webRoot, 'pages', 'index.html'), page('Home page'));
    writeFileSync(join(webRoot, 'pages', 'about.html'), page('About page'));
    writeFileSync(join(webRoot, 'pages', '404.html'), page('404 Page Not Found'));
    writeFileSync(join(webRoot, 'pages', 'robots.txt'), robotsTxt(siteRoutes, publicUrlPlaceholder));
    writeFileSync(join(webRoot, 'pages', 'sitemap.xml'), sitemapXml(siteRoutes, publicUrlPlaceholder));
    const manifest: WebPagesManifest = {
      documents: [
        { path: '/robots.txt', file: 'pages/robots.txt', type: 'text/plain; charset=utf-8' },
        { path: '/sitemap.xml', file: 'pages/sitemap.xml', type: 'application/xml; charset=utf-8' },
      ],
      pages: [
        { path: '/', file: 'pages/index.html' },
        { path: '/about', file: 'pages/about.html' },
      ],
      clientOnly: siteRoutes.filter((route) => route.kind === 'private').map((route) => ({ path: route.path, prefix: route.prefix === true })),
      notFound: 'pages/404.html',
    };
    writeFileSync(join(webRoot, webPagesManifestFile), JSON.stringify(manifest));
    const config = {
      ...parseConfig({
        NODE_ENV: 'test',
        DATABASE_PATH: join(dir, 'app.db'),
        ...(await freshDatabaseEnv()),
        DATA_DIR: dir,
        LOG_LEVEL: 'silent',
        PUBLIC_URL: publicUrl,
      }),
      sessionSecret: 'test-session-secret-that-is-long-enough-0123456789',
    };
    app = await buildApp(config, { webRoot });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves robots.txt as text, disallowing the private areas and naming the sitemap', async () => {
    const response = await app.inject({ url: '/robots.txt' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const lines = response.payload.split('\n');
    for (const path of ['/admin', '/dealer-login', '/dealer-dashboard', '/reset-password', '/rate', '/simple-test', '/payment', '/api/']) {
      expect(lines).toContain(`Disallow: ${path}`);
    }
    expect(lines.filter((line) => line.startsWith('Disallow: '))).not.toContain('Disallow: /');
    expect(lines).toContain(`Sitemap: ${publicUrl}/sitemap.xml`);
    expect(response.payload).not.toContain('<div id="root">');
  });

  it('serves sitemap.xml as XML, listing every public page and no private one', async () => {
    const response = await app.inject({ url: '/sitemap.xml' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    const locations = [...response.payload.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(
      ['/', '/about', '/contact', '/support', '/get-started', '/privacy-policy', '/terms-of-service', '/cookie-policy'].map(
        (path) => `${publicUrl}${path}`,
      ),
    );
  });

  it("answers each public path with its own page, the client-only areas with the noindex shell", async () => {
    const home = await app.inject({ url: '/' });
    expect(home.statusCode).toBe(200);
    expect(home.headers['content-type']).toMatch(/^text\/html/);
    expect(home.payload).toContain('<h1>Home page</h1>');

    const about = await app.inject({ url: '/about?ref=newsletter' });
    expect(about.statusCode).toBe(200);
    expect(about.payload).toContain('<h1>About page</h1>');

    for (const path of ['/admin', '/admin/leads/contact/7', '/dealer-dashboard', '/dealer-login', '/reset-password?token=abc', '/rate?token=abc&rating=good', '/simple-test', '/payment']) {
      const response = await app.inject({ url: path });
      expect(response.statusCode, path).toBe(200);
      expect(response.payload, path).toContain('<meta name="robots" content="noindex" />');
      expect(response.payload, path).toContain('<div id="root"></div>');
    }
  });

  it('names the PUBLIC_URL this start read in every page, robots.txt and the sitemap, never the build’s placeholder', async () => {
    for (const path of ['/', '/about', '/robots.txt', '/sitemap.xml', '/no-such-page']) {
      const response = await app.inject({ url: path });
      expect(response.payload, path).toContain(publicUrl);
      expect(response.payload, path).not.toContain(publicUrlPlaceholder);
    }
    const about = await app.inject({ url: '/about' });
    expect(about.payload).toContain(`<link rel="canonical" href="${publicUrl}/10" />`);
    expect(about.payload).toContain(`{"url":"${publicUrl}/"}`);
  });

  it('sends a page compressed as the browser asks, and 304 for the copy it holds', async () => {
    const plain = await app.inject({ url: '/about' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('accept-encoding');
    expect(plain.headers['cache-control']).toBe('no-cache');
    for (const [accepted, encoding, decode] of [
      ['gzip, deflate, br', 'br', brotliDecompressSync],
      ['gzip', 'gzip', gunzipSync],
      ['br;q=0, gzip;q=0.5', 'gzip', gunzipSync],
    ] as const) {
      const response = await app.inject({ url: '/about', headers: { 'accept-encoding': accepted } });
      expect(response.headers['content-encoding'], accepted).toBe(encoding);
      expect(decode(response.rawPayload).toString(), accepted).toBe(plain.payload);
    }
    const again = await app.inject({ url: '/about', headers: { 'if-none-match': plain.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    expect(again.payload).toBe('');
    const missing = await app.inject({ url: '/no-such-page', headers: { 'if-none-match': plain.headers.etag as string } });
    expect(missing.statusCode).toBe(404);
  });

  it('redirects a public path with a trailing slash to the page, keeping the query', async () => {
    const plain = await app.inject({ url: '/about/' });
    expect(plain.statusCode).toBe(301);
    expect(plain.headers.location).toBe('/about');
    const withQuery = await app.inject({ url: '/about/?utm_source=mail&plan=pro' });
    expect(withQuery.headers.location).toBe('/about?utm_source=mail&plan=pro');
  });

  it('answers an unknown path 404 with the 404 page, an unknown API path 404 with JSON', async () => {
    for (const path of ['/no-such-page', '/about/team', '/administrator', '/pages/about.html']) {
      const response = await app.inject({ url: path, headers: { accept: 'text/html' } });
      expect(response.statusCode, path).toBe(404);
      expect(response.headers['content-type'], path).toMatch(/^text\/html/);
      expect(response.payload, path).toContain('<h1>404 Page Not Found</h1>');
    }

    const api = await app.inject({ url: '/api/no-such-thing', headers: { accept: 'text/html' } });
    expect(api.statusCode).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/json/);
    expect(api.json()).toEqual({ message: 'Not found: GET /api/no-such-thing' });
  });
});

describe('PUBLIC_URL', () => {
  it('is an http(s) address that can go into HTML, XML and JSON as it is, or the server does not start', () => {
    expect(parseConfig({ PUBLIC_URL: 'https://www.example.com/' }).publicUrl).toBe('https://www.example.com');
    expect(parseConfig({ PUBLIC_URL: 'https://www.example.com/site' }).publicUrl).toBe('https://www.example.com/site');
    for (const bad of ['ftp://example.com', 'javascript:alert(1)', 'https://example.com/?a=1', 'https://example.com/#x', 'https://example.com/"><script>', 'not a url']) {
      expect(() => parseConfig({ PUBLIC_URL: bad }), bad).toThrow(ConfigError);
      expect(() => parseConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
  });
});
