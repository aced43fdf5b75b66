import { api } from '../../../lib/api-client';
import { storageKeys } from '../../../lib/storage-keys';
import { apiPaths, leadPaths, withQuery } from '../../../../api/contract/paths';

/**
 * Requests of the first dashboard screen, started by the router while the admin bundle is still
 * downloading (it is in the main bundle: keep it tiny). Each answer is taken once by the first
 * matching request of the admin feature; anything not taken soon is dropped.
 */
const pending = new Map<string, { answer: Promise<unknown>; at: number }>();
const freshForMs = 10_000;

/** The first page's size; the admin feature asks for the same (a test holds the two together). */
const firstPageLimit = 100;

/** The first screen's GETs, exactly as the admin feature asks for them. */
export const firstScreenPaths = {
  session: apiPaths.session,
  staff: [
    apiPaths.adminCounts,
    ...(['contact', 'support', 'demo', 'get-started'] as const).map((kind) => withQuery(leadPaths[kind].list, { limit: firstPageLimit })),
    withQuery(apiPaths.chatSessions, { limit: firstPageLimit }),
  ],
} as const;

/** The session, and when this browser was signed in (the signed-in mirror flag in local storage), the first pages too. */
export function prefetchAdminData(): void {
  start(firstScreenPaths.session);
  if (localStorage.getItem(storageKeys.adminAuthenticated) === 'true') for (const path of firstScreenPaths.staff) start(path);
}

function start(path: string): void {
  if (pending.has(path)) return;
  const answer = api.get<unknown>(path);
  // A prefetch nobody takes must not surface as an unhandled rejection; the taker still sees it.
  answer.catch(() => undefined);
  pending.set(path, { answer, at: Date.now() });
}

export function takePrefetched<T>(path: string): Promise<T> | undefined {
  const entry = pending.get(path);
  pending.delete(path);
  if (!entry || Date.now() - entry.at > freshForMs) return undefined;
  return entry.answer as Promise<T>;
}
