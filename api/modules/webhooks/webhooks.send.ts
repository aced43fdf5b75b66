import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import { webhookDeliveryHeader, webhookEventHeader, webhookSignatureHeader } from '../../contract/admin-operations';
import { guardedLookup, literalHostAllowed, WebhookAddressError } from './webhooks.address';

/** `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`: the timestamp is signed with the body, so a replay is dated. */
export function webhookSignature(secret: string, body: string, unixSeconds: number): string {
  const digest = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${digest}`;
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
}

const maxErrorLength = 500;

/**
 * POSTs one delivery: signed, never following a redirect (a 3xx is an answer, and a failure), its
 * address checked as the socket connects, given up after `timeoutMs`. Never throws: the outcome is
 * what the attempt row records.
 */
export async function sendWebhook(
  target: { url: string; secret: string },
  delivery: { id: string; eventType: string; body: string },
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const durationMs = () => Math.round(performance.now() - started);
  const url = new URL(target.url);
  if (!literalHostAllowed(url, options.allowPrivate)) {
    return { statusCode: null, error: 'refused: a private, loopback or link-local address', durationMs: durationMs() };
  }
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
      { method: 'POST', headers, lookup: guardedLookup(options.allowPrivate), timeout: options.timeoutMs, agent: false },
      (response) => {
        // The body is not read for meaning, only drained so the socket closes.
        response.resume();
        response.on('end', () => settle({ statusCode: response.statusCode ?? null, error: null, durationMs: durationMs() }));
        response.on('error', (error) => settle({ statusCode: response.statusCode ?? null, error: error.message, durationMs: durationMs() }));
      },
    );
    const deadline = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    request.on('close', () => clearTimeout(deadline));
    request.on('timeout', () => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)));
    request.on('error', (error) => {
      const text = error instanceof WebhookAddressError ? `refused: ${error.message}` : error.message;
      settle({ statusCode: null, error: text.slice(0, maxErrorLength), durationMs: durationMs() });
    });
    request.end(delivery.body);
  });
}

/** A 2xx answer: anything else (a redirect too) is retried. */
export function succeeded(result: SendResult): boolean {
  return result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;
}
