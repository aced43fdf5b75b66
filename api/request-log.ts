import type { FastifyRequest } from 'fastify';
import { secretQueryParameters } from './lib/signed-link';

/** The signed-link module's secret query parameters (a mailed link's `token`, a conversation link's `chat`): logged as `name=[redacted]`. */
const secretNames: ReadonlySet<string> = new Set(secretQueryParameters);

function isSecretName(name: string): boolean {
  let decoded = name.replace(/\+/g, ' ');
  try {
    decoded = decodeURIComponent(decoded);
  } catch {
    // A malformed escape: judged by the name as written.
  }
  return secretNames.has(decoded.trim().toLowerCase());
}

/** `url` with the value of each secret query parameter replaced; the path and the other parameters as they were. */
export function redactSecrets(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart === -1) return url;
  const pairs = url.slice(queryStart + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    if (equals === -1) return pair;
    const name = pair.slice(0, equals);
    return isSecretName(name) ? `${name}=[redacted]` : pair;
  });
  return `${url.slice(0, queryStart)}?${pairs.join('&')}`;
}

/** Fastify's own `req` log fields, with the URL's secrets redacted. */
export function requestLogFields(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactSecrets(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
