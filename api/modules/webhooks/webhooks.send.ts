import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { webhookDeliveryHeader, webhookEventHeader, webhookSignatureHeader } from '../../contract/admin-operations';
import { deliveryAllowed, guardedLookup, WebhookAddressError } from './webhooks.address';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the timestamp is signed with the body, so a replay is dated. */
export function webhookSignature(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

export interface SendResult {
  statusCode: number | null;
  /**
   * What went wrong, as a short class (`timeout`, `refused`, `dns`, `tls`, `reset`, `unreachable`,
   * `address refused`, `deadline`, `http-status 503`, `error`), never the raw connect or TLS error: an
   * admin who can name any URL must not learn what answers on which port of which host.
   */
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  /** The job's deadline (api/jobs JobContext): the try is given up when it aborts. */
  signal?: AbortSignal;
}

class SendTimeout extends Error {}

const tlsCodes = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_SELF_SIGNED_CERT$|SELF_SIGNED_CERT_IN_CHAIN$|UNABLE_TO_|HOSTNAME_MISMATCH$)/;

/** The class of a failed try (SendResult.error), from the error Node gave. */
export function failureClass(error: unknown): string {
  if (error instanceof WebhookAddressError) return 'address refused';
  if (error instanceof SendTimeout) return 'timeout';
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (name === 'AbortError') return 'deadline';
  if (typeof code !== 'string') return 'error';
  if (code === 'ECONNREFUSED') return 'refused';
  if (code === 'ETIMEDOUT' || code === 'ESOCKETTIMEDOUT') return 'timeout';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_FAIL') return 'dns';
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNABORTED') return 'reset';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'unreachable';
  // EPROTO: the TLS handshake met something that does not speak TLS.
  if (code === 'EPROTO' || tlsCodes.test(code)) return 'tls';
  return 'error';
}

/**
 * POSTs one delivery: signed, never following a redirect (a 3xx is an answer, and a failure), its
 * address checked as the socket connects, given up after `timeoutMs` or at the job's deadline. Never
 * throws: the outcome is what the attempt row records.
 */
export async function sendWebhook(
  target: { url: string; secret: string },
  delivery: { id: string; eventType: string; body: string },
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  const url = new URL(target.url);
  if (!deliveryAllowed(url, options.allowPrivate)) return { statusCode: null, error: 'address refused', durationMs: durationMs() };
  if (options.signal?.aborted) return { statusCode: null, error: 'deadline', durationMs: durationMs() };
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'Lotwise-Webhooks/1',
    [webhookSignatureHeader]: webhookSignature(target.secret, delivery.body, Math.floor(Date.now() / 1000)),
    [webhookDeliveryHeader]: delivery.id,
    [webhookEventHeader]: delivery.eventType,
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((settle) => {
    const request = client.request(
      url,
      { method: 'POST', headers, lookup: guardedLookup(options.allowPrivate), timeout: options.timeoutMs, agent: false, signal: options.signal },
      (response) => {
        const statusCode = response.statusCode ?? null;
        const answered = () => ({ statusCode, error: statusCode !== null && statusCode >= 200 && statusCode < 300 ? null : `http-status ${statusCode}`, durationMs: durationMs() });
        // The body is not read for meaning, only drained so the socket closes.
        response.resume();
        response.on('end', () => settle(answered()));
        response.on('error', () => settle(answered()));
      },
    );
    const deadline = setTimeout(() => request.destroy(new SendTimeout()), options.timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new SendTimeout()));
    request.on('error', (error) => settle({ statusCode: null, error: failureClass(error), durationMs: durationMs() }));
    request.end(delivery.body);
  });
}

/** A 2xx answer: anything else (a redirect too) is retried. */
export function succeeded(result: SendResult): boolean {
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}
