import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import negotiate from '@fastify/accept-negotiator';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { publicUrlPlaceholder, webPagesManifestFile, webPagesManifestSchema } from './contract/web-pages';

/** The folder of the prerendered pages: served through their paths (`/about`), not as files. */
export const prerenderedPagesFolder = '/pages/';

/** A prerendered document with the site's address in place, as it is sent: plain, gzip and brotli. */
interface Document {
  type: string;
  etag: string;
  bodies: Record<'identity' | 'gzip' | 'br', Buffer>;
}

/** Reads a built document once, puts `publicUrl` where the build left its placeholder, and compresses it. */
function loadDocument(webRoot: string, file: string, type: string, publicUrl: string): Document {
  const text = readFileSync(join(webRoot, file), 'utf8').replaceAll(publicUrlPlaceholder, publicUrl);
  const body = Buffer.from(text);
  return {
    type,
    etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
    bodies: {
      identity: body,
      gzip: gzipSync(body, { level: 9 }),
      br: brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } }),
    },
  };
}

function sendDocument(request: FastifyRequest, reply: FastifyReply, document: Document): FastifyReply {
  // Each names the hashed bundles of one build and the address of this start: never served stale.
  reply.header('cache-control', 'no-cache').header('etag', document.etag).header('vary', 'accept-encoding').type(document.type);
  if (request.headers['if-none-match'] === document.etag && reply.statusCode === 200) return reply.code(304).send();
  const accepted = request.headers['accept-encoding'];
  const encoding = (accepted && negotiate(accepted, ['br', 'gzip'])) || 'identity';
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(document.bodies[encoding]);
}

function sendShell(reply: FastifyReply): FastifyReply {
  // The HTML names the hashed bundles of one build: it must never be served stale.
  return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
}

/**
 * The pages of the built web app (after @fastify/static is registered on `webRoot`): each public path
 * answers its prerendered HTML, the client-only areas (/admin, the dealer area) the SPA shell, and
 * any other page path `404` with the prerendered 404 page (`sendNotFoundPage`, used by the errors
 * plugin's not-found handler); robots.txt and the sitemap beside them. The page map comes from the
 * build (scripts/vite/prerender.ts); the pages are read once, here, with `publicUrl` (PUBLIC_URL as
 * this start reads it) put in their links.
 */
export function registerWebPages(app: FastifyInstance, options: { webRoot: string; publicUrl: string }): void {
  const manifestPath = join(options.webRoot, webPagesManifestFile);
  if (!existsSync(manifestPath)) {
    // A build without prerendered pages: the SPA shell answers every page path, as it did before.
    app.decorate('sendNotFoundPage', sendShell);
    app.get('/', (_request, reply) => sendShell(reply));
    return;
  }
  const manifest = webPagesManifestSchema.parse(JSON.parse(readFileSync(manifestPath, 'utf8')));
  const load = (file: string, type = 'text/html; charset=utf-8') => loadDocument(options.webRoot, file, type, options.publicUrl);
  for (const page of manifest.pages) {
    const document = load(page.file);
    app.get(page.path, (request, reply) => sendDocument(request, reply, document));
    // `/about/` is the same page: a permanent redirect to the one address search engines should keep.
    if (page.path !== '/') {
      app.get(`${page.path}/`, (request, reply) => {
        const query = request.url.indexOf('?');
        return reply.redirect(query === -1 ? page.path : `${page.path}${request.url.slice(query)}`, 301);
      });
    }
  }
  for (const item of manifest.documents) {
    const document = load(item.file, item.type);
    app.get(item.path, (request, reply) => sendDocument(request, reply, document));
  }
  for (const area of manifest.clientOnly) {
    app.get(area.path, (_request, reply) => sendShell(reply));
    if (area.prefix) app.get(`${area.path}/*`, (_request, reply) => sendShell(reply));
  }
  const notFound = load(manifest.notFound);
  app.decorate('sendNotFoundPage', (reply: FastifyReply) => sendDocument(reply.request, reply.code(404), notFound));
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers a page path the site does not have: `404` with the 404 page. */
    sendNotFoundPage(reply: FastifyReply): FastifyReply;
  }
}
