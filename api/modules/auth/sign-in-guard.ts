import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { HttpError } from '../../plugins/errors';
import { addressKey, type CounterResult, isAllowlisted, keyedLimit, tooManyRequestsMessage } from '../../plugins/rate-limits';

/**
 * Who may try a password, following OWASP's "Slow down online guessing attacks with device cookies":
 *
 * - A browser that has signed in to the account before carries a signed device cookie for it. It is
 *   held back only by its own failures (10 per 15 minutes), never by other addresses' guessing, so a
 *   stranger cannot lock the owner out.
 * - Any other client is an untrusted one. Each (account, address) pair gets 10 failures per 15
 *   minutes, an IPv6 address counted by its /64 (one household or office). Past 20 untrusted
 *   failures on the account in 15 minutes, the account is under attack: after each failure, that
 *   address must wait before its next try, the wait doubling every 20 failures, up to 15 minutes. A
 *   client's first try is never delayed: the owner on a new browser still gets in, a guesser slows down.
 * - An untrusted address also gets 30 failures per 15 minutes over every account (a guesser moving
 *   from account to account). Only failures count: a whole office behind one address signs in as
 *   often as it likes, and a trusted browser there is never held back by a neighbour's guessing.
 */

const windowMs = 15 * 60 * 1000;
const failuresPerDevice = 10;
const failuresPerAccountAndAddress = 10;
/** Untrusted failures per address over every account: generous for an office behind one address, tight enough to stop spraying. */
const failuresPerAddress = 30;
/** Untrusted failures on one account within the window before each further failure costs a wait. */
export const underAttackAfterFailures = 20;
const longestWaitMs = windowMs;
/** How long a device cookie is kept: a browser signed in within this time stays trusted. */
const deviceCookieLifetimeSeconds = 180 * 24 * 60 * 60;

/** The wait after an untrusted failure, when the account has had `failures` of them in the window. */
export function waitAfterFailureMs(failures: number): number {
  if (failures < underAttackAfterFailures) return 0;
  const doublings = Math.floor((failures - underAttackAfterFailures) / underAttackAfterFailures);
  return Math.min(1000 * 2 ** doublings, longestWaitMs);
}

export type AccountKind = 'dealer' | 'staff';

/** A sign-in attempt as the guard sees it: which account (if any) and how its failures are counted. */
export interface GuardedAttempt {
  /** Counts failures per account however the login was typed (see auth.service's SignInTarget). */
  limitKey: string;
  accountId: number | undefined;
}

export interface SignInGuard {
  /** Before the password is checked: throws 429 when this client must wait. */
  admit(request: FastifyRequest, attempt: GuardedAttempt): Promise<void>;
  /** After a wrong password: counts it against this client. */
  failed(request: FastifyRequest, attempt: GuardedAttempt): Promise<void>;
  /** After a right password: this browser is trusted for the account from now on (a new cookie each time). */
  succeeded(reply: FastifyReply, accountId: number): void;
}

export function deviceCookieName(kind: AccountKind, accountId: number): string {
  return `lw_device_${kind === 'staff' ? 's' : 'd'}${accountId}`;
}

function refuseIfOver(result: CounterResult): void {
  if (!result.ok) throw new HttpError(429, tooManyRequestsMessage(result.retryAfterMs));
}

export function signInGuard(app: FastifyInstance, options: { kind: AccountKind; config: Config }): SignInGuard {
  const { kind, config } = options;
  const allowlist = config.rateLimitAllowlist;
  const name = `${kind}-login`;
  const devices = keyedLimit(app, { name: `${name}-device`, max: failuresPerDevice, timeWindowMs: windowMs });
  const pairs = keyedLimit(app, { name: `${name}-pair`, max: failuresPerAccountAndAddress, timeWindowMs: windowMs });
  const addresses = keyedLimit(app, { name: `${name}-address`, max: failuresPerAddress, timeWindowMs: windowMs });
  // A tally only: it never refuses, its count sets the wait.
  const untrusted = keyedLimit(app, { name: `${name}-untrusted`, max: Number.MAX_SAFE_INTEGER, timeWindowMs: windowMs });
  // One try per wait: a failure under attack blocks its (account, address) pair for the wait.
  const spacing = keyedLimit(app, { name: `${name}-wait`, max: 1, timeWindowMs: longestWaitMs });
  const skips = (request: FastifyRequest) => isAllowlisted(allowlist, request.ip);

  /** The device nonce of this request's valid cookie for the account, if it carries one. */
  const deviceOf = (request: FastifyRequest, accountId: number | undefined): string | undefined => {
    if (accountId === undefined) return undefined;
    const raw = request.cookies[deviceCookieName(kind, accountId)];
    if (!raw) return undefined;
    const unsigned = request.unsignCookie(raw);
    if (!unsigned.valid || !unsigned.value) return undefined;
    const [cookieKind, id, nonce] = unsigned.value.split(':');
    return cookieKind === kind && id === String(accountId) && nonce ? nonce : undefined;
  };
  const pairKey = (request: FastifyRequest, attempt: GuardedAttempt) => `${attempt.limitKey}|${addressKey(request.ip)}`;

  return {
    async admit(request, attempt) {
      if (skips(request)) return;
      const device = deviceOf(request, attempt.accountId);
      if (device) return refuseIfOver(await devices.peek(device));
      refuseIfOver(await addresses.peek(addressKey(request.ip)));
      refuseIfOver(await pairs.peek(pairKey(request, attempt)));
      refuseIfOver(await spacing.peek(pairKey(request, attempt)));
    },
    async failed(request, attempt) {
      if (skips(request)) return;
      const device = deviceOf(request, attempt.accountId);
      if (device) return refuseIfOver(await devices.hit(device));
      await addresses.hit(addressKey(request.ip));
      await pairs.hit(pairKey(request, attempt));
      const waitMs = waitAfterFailureMs(await untrusted.tally(attempt.limitKey));
      if (waitMs > 0) await spacing.block(pairKey(request, attempt), waitMs);
    },
    succeeded(reply, accountId) {
      const nonce = randomBytes(16).toString('base64url');
      reply.setCookie(deviceCookieName(kind, accountId), `${kind}:${accountId}:${nonce}`, {
        signed: true,
        httpOnly: true,
        sameSite: 'strict',
        secure: config.cookieSecure,
        // Sent to the API only, where the sign-in calls are; pages never need it.
        path: '/api',
        maxAge: deviceCookieLifetimeSeconds,
      });
    },
  };
}
