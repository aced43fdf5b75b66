import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import react from '@vitejs/plugin-react';
import { build, type Plugin } from 'vite';
import { brand } from '../../api/contract/brand.js';
import { publicUrlPlaceholder, type WebPagesManifest, webPagesManifestFile } from '../../api/contract/web-pages.js';
import type { SiteRoute } from '../../web/features/marketing/routes';

/** What the server-side build of web/entry-server.tsx exports. */
interface ServerEntry {
  renderPage(location: string): Promise<string>;
  siteRoutes: readonly SiteRoute[];
  notFoundRoute: SiteRoute;
  documentTitle(route: SiteRoute): string;
}

interface ClientChunk {
  fileName: string;
  imports: string[];
  isEntry: boolean;
}

/** The designed link preview (web/public/og-image.png; its source is scripts/og-image.html). */
const ogImage = { path: '/og-image.png', width: 1200, height: 630, alt: `${brand.product}: AI-powered websites for pre-owned dealerships` };

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const escapeXml = escapeHtml;

/** JSON inside a <script> element: no `</script>` or `<!--` can end it early. */
const jsonForScript = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** The file a route's page is written to, under the built app's `pages/`. */
const pageFile = (route: SiteRoute) => `pages/${route.path === '/' ? 'index' : route.path.slice(1)}.html`;

/** The route module of a page, as the client build names it (the key of its lazy chunk). */
const routeModule = (route: SiteRoute, notFound: SiteRoute) =>
  `/web/app/routes/${route === notFound ? 'not-found' : route.path === '/' ? 'home' : route.path.slice(1)}.tsx`;

function structuredData(route: SiteRoute, publicUrl: string): unknown[] {
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: brand.product,
    url: `${publicUrl}/`,
    logo: `${publicUrl}/favicon.svg`,
    email: brand.supportEmail,
    telephone: brand.phoneHref.replace(/^tel:/, ''),
    contactPoint: {
      '@type': 'ContactPoint',
      contactType: 'customer support',
      telephone: brand.phoneHref.replace(/^tel:/, ''),
      email: brand.supportEmail,
      availableLanguage: 'English',
    },
  };
  const data: unknown[] = [organization];
  if (route.faq?.length) {
    data.push({
      '@context': 'https://schema.org',
      '@type': 'FAQPage',
      mainEntity: route.faq.map((item) => ({
        '@type': 'Question',
        name: item.question,
        acceptedAnswer: { '@type': 'Answer', text: item.answer },
      })),
    });
  }
  return data;
}

/** The head of a prerendered page: title, description, canonical, Open Graph, Twitter card, JSON-LD. */
export function pageHead(route: SiteRoute, title: string, publicUrl: string, options: { notFound: boolean }): string {
  const url = `${publicUrl}${route.path}`;
  const image = `${publicUrl}${ogImage.path}`;
  const meta = (attribute: 'name' | 'property', key: string, content: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;
  const tags = [`<title>${escapeHtml(title)}</title>`, meta('name', 'description', route.description)];
  if (options.notFound) {
    tags.push(meta('name', 'robots', 'noindex'));
  } else {
    tags.push(
      `<link rel="canonical" href="${escapeHtml(url)}" />`,
      meta('property', 'og:type', 'website'),
      meta('property', 'og:site_name', brand.product),
      meta('property', 'og:title', title),
      meta('property', 'og:description', route.description),
      meta('property', 'og:url', url),
      meta('property', 'og:image', image),
      meta('property', 'og:image:width', String(ogImage.width)),
      meta('property', 'og:image:height', String(ogImage.height)),
      meta('property', 'og:image:alt', ogImage.alt),
      meta('property', 'og:locale', 'en_US'),
      meta('name', 'twitter:card', 'summary_large_image'),
      meta('name', 'twitter:title', title),
      meta('name', 'twitter:description', route.description),
      meta('name', 'twitter:image', image),
      meta('name', 'twitter:image:alt', ogImage.alt),
    );
  }
  for (const data of structuredData(route, publicUrl)) tags.push(`<script type="application/ld+json">${jsonForScript(data)}</script>`);
  return tags.join('\n    ');
}

export function robotsTxt(routes: readonly SiteRoute[], publicUrl: string): string {
  const disallowed = routes.filter((route) => route.kind === 'private').map((route) => `Disallow: ${route.path}`);
  return ['User-agent: *', ...disallowed, 'Disallow: /api/', '', `Sitemap: ${publicUrl}/sitemap.xml`, ''].join('\n');
}

export function sitemapXml(routes: readonly SiteRoute[], publicUrl: string): string {
  const urls = routes
    .filter((route) => route.kind === 'public')
    .map((route) => `  <url><loc>${escapeXml(`${publicUrl}${route.path}`)}</loc></url>`);
  return ['<?xml version="1.0" encoding="UTF-8"?>', '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">', ...urls, '</urlset>', ''].join('\n');
}

/** Removes the template's own title and description: each page brings its own. */
function stripTemplateHead(html: string): string {
  return html.replace(/\s*<title>[^<]*<\/title>/, '').replace(/\s*<meta name="description"[^>]*>/, '');
}

/**
 * After the client build: builds web/entry-server.tsx for Node, renders every public route and the
 * 404 page into `pages/*.html` (each with its own head and its route's chunks preloaded), marks the
 * SPA shell (index.html, for the client-only areas) noindex, and writes robots.txt, sitemap.xml and
 * the server's page map, all from the one route list in web/features/marketing/routes.ts.
 */
export function prerenderPages(): Plugin {
  let root = '';
  let outDir = '';
  let skip = false;
  const chunks = new Map<string, ClientChunk>();
  return {
    name: 'lotwise-prerender',
    apply: 'build',
    configResolved(config) {
      root = config.root;
      outDir = resolve(config.root, config.build.outDir);
      skip = Boolean(config.build.ssr);
    },
    generateBundle(_options, bundle) {
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk' || !item.facadeModuleId) continue;
        chunks.set(item.facadeModuleId, { fileName: item.fileName, imports: item.imports, isEntry: item.isEntry });
      }
    },
    closeBundle: {
      order: 'pre',
      sequential: true,
      async handler() {
        if (skip) return;
        // Inside the project whatever the outDir, so Node resolves the bundle's packages from node_modules;
        // one folder per build, so two builds at once (a test's and yours) do not share it.
        const serverOut = resolve(root, `../dist/.prerender-${process.pid}`);
        await build({
          configFile: false,
          root,
          logLevel: 'warn',
          plugins: [react()],
          build: { ssr: 'entry-server.tsx', outDir: serverOut, emptyOutDir: true, target: 'node20' },
        });
        try {
          const entry = (await import(pathToFileURL(join(serverOut, 'entry-server.js')).href)) as ServerEntry;
          await writePages(entry, outDir, chunks);
        } finally {
          rmSync(serverOut, { recursive: true, force: true });
        }
      },
    },
  };

}

/** The modulepreload links of a route's lazy chunk and what it imports, less the entry (already a script tag). */
function routePreloads(module: string, chunks: Map<string, ClientChunk>, html: string): string {
  const chunk = [...chunks.entries()].find(([id]) => id.endsWith(module))?.[1];
  if (!chunk) throw new Error(`prerender: no client chunk for ${module}`);
  const entryFiles = new Set([...chunks.values()].filter((item) => item.isEntry).map((item) => item.fileName));
  return [chunk.fileName, ...chunk.imports]
    .filter((file) => !entryFiles.has(file) && !html.includes(`/${file}"`))
    .map((file) => `<link rel="modulepreload" crossorigin href="/${file}" />`)
    .join('\n    ');
}

async function writePages(entry: ServerEntry, outDir: string, chunks: Map<string, ClientChunk>): Promise<void> {
  // The site's address is the server's to fill in at start (api/web-pages.ts), from its PUBLIC_URL.
  const publicUrl = publicUrlPlaceholder;
  const shell = readFileSync(join(outDir, 'index.html'), 'utf8');
  const template = stripTemplateHead(shell);
  if (!template.includes('<div id="root"></div>')) throw new Error('prerender: index.html has no empty <div id="root">');
  mkdirSync(join(outDir, 'pages'), { recursive: true });

  const manifest: WebPagesManifest = { pages: [], clientOnly: [], notFound: '', documents: [] };
  const publicRoutes = entry.siteRoutes.filter((route) => route.kind === 'public');
  for (const route of [...publicRoutes, entry.notFoundRoute]) {
    const notFound = route === entry.notFoundRoute;
    // Any path the router does not know renders the 404 page.
    const rendered = await entry.renderPage(notFound ? '/__lotwise-not-found__' : route.path);
    // React puts the page's <title> first (it hoists it); the head has it already, where hydration finds it.
    const body = rendered.replace(/^<title>[^<]*<\/title>/, '');
    if (/^<(title|meta|link)\b/.test(body)) throw new Error(`prerender: ${route.path} renders head elements the head does not have`);
    const head = [pageHead(route, entry.documentTitle(route), publicUrl, { notFound }), routePreloads(routeModule(route, entry.notFoundRoute), chunks, template)];
    const html = template
      // Replacer functions: the page's text has `$` signs, which a replacement string would interpret.
      .replace('</head>', () => `  ${head.join('\n    ')}\n  </head>`)
      .replace('<div id="root"></div>', () => `<div id="root">${body}</div>`);
    const file = pageFile(route);
    writeFileSync(join(outDir, file), html);
    if (notFound) manifest.notFound = file;
    else manifest.pages.push({ path: route.path, file });
  }
  for (const route of entry.siteRoutes.filter((item) => item.kind === 'private')) {
    manifest.clientOnly.push({ path: route.path, prefix: route.prefix === true });
  }

  // The shell: the client-only areas, which search engines are asked not to index.
  writeFileSync(join(outDir, 'index.html'), shell.replace('</head>', '  <meta name="robots" content="noindex" />\n  </head>'));
  // Beside the pages, which are never served as files: the server answers them with its address in place.
  writeFileSync(join(outDir, 'pages', 'robots.txt'), robotsTxt(entry.siteRoutes, publicUrl));
  writeFileSync(join(outDir, 'pages', 'sitemap.xml'), sitemapXml(entry.siteRoutes, publicUrl));
  manifest.documents.push(
    { path: '/robots.txt', file: 'pages/robots.txt', type: 'text/plain; charset=utf-8' },
    { path: '/sitemap.xml', file: 'pages/sitemap.xml', type: 'application/xml; charset=utf-8' },
  );
  writeFileSync(join(outDir, webPagesManifestFile), `${JSON.stringify(manifest, null, 2)}\n`);
}
