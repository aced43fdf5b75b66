import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { webPagesManifestFile, webPagesManifestSchema } from './contract/web-pages';

/** The folder of the prerendered pages: served through their paths (`/about`), not as files. */
export const prerenderedPagesFolder = '/pages/';

function sendHtml(reply: FastifyReply, file: string): FastifyReply {
  // The HTML names the hashed bundles of one build: it must never be served stale.
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile(file);
}

/**
 * The pages of the built web app (after @fastify/static is registered on `webRoot`): each public path
 * answers its prerendered HTML, the client-only areas (/admin, the dealer area) the SPA shell, and
 * any other page path `404` with the prerendered 404 page (`sendNotFoundPage`, used by the errors
 * plugin's not-found handler). The page map comes from the build (scripts/vite/prerender.ts).
 */
export function registerWebPages(app: FastifyInstance, options: { webRoot: string; publicUrl: string }): void {
  const sendShell = (reply: FastifyReply) => sendHtml(reply, 'index.html');
  const manifestPath = join(options.webRoot, webPagesManifestFile);
  if (!existsSync(manifestPath)) {
    // A build without prerendered pages: the SPA shell answers every page path, as it did before.
    app.decorate('sendNotFoundPage', sendShell);
    app.get('/', (_request, reply) => sendShell(reply));
    return;
  }
  const manifest = webPagesManifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
  if (manifest.publicUrl !== options.publicUrl) {
    app.log.warn(
      `The web app was built for PUBLIC_URL=${manifest.publicUrl} but the server runs with ${options.publicUrl}: canonical links, the sitemap and link previews name the build's. Run \`npm run build\` with this PUBLIC_URL.`,
    );
  }
  for (const page of manifest.pages) {
    app.get(page.path, (_request, reply) => sendHtml(reply, page.file));
    // `/about/` is the same page: a permanent redirect to the one address search engines should keep.
    if (page.path !== '/') {
      app.get(`${page.path}/`, (request, reply) => {
        const query = request.url.indexOf('?');
        return reply.redirect(query === -1 ? page.path : `${page.path}${request.url.slice(query)}`, 301);
      });
    }
  }
  for (const area of manifest.clientOnly) {
    app.get(area.path, (_request, reply) => sendShell(reply));
    if (area.prefix) app.get(`${area.path}/*`, (_request, reply) => sendShell(reply));
  }
  app.decorate('sendNotFoundPage', (reply: FastifyReply) => sendHtml(reply.code(404), manifest.notFound));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers a page path the site does not have: `404` with the 404 page. */
    sendNotFoundPage(reply: FastifyReply): FastifyReply;
  }
}
