import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { brand } from '../../contract/brand';
import { checkLink } from '../../lib/signed-link';
import { addressConfirmationLink, checkUnsubscribeToken } from './mail.addresses';
import { confirmAddressPath, type MailPolicy, unsubscribePath } from './mail.policy';
import { findConfirmation, markConfirmed } from './mail.repository';
import { escapeHtml } from './mail.service';

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)} | ${brand.product}</title>
<style>body{font-family:system-ui,Arial,sans-serif;background:#f8fafc;color:#0f172a;margin:0;padding:48px 16px}main{max-width:440px;margin:0 auto;background:#fff;border-radius:12px;padding:28px;box-shadow:0 1px 3px rgba(0,0,0,.1)}h1{font-size:22px;margin:0 0 12px}p{line-height:1.5}button{background:#333399;color:#fff;border:0;border-radius:8px;padding:10px 18px;font-size:16px;font-weight:600;cursor:pointer}a{color:#333399}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}<p><a href="/">Back to the ${brand.product} website</a></p></main></body></html>`;
}

/** `a***@example.com`: enough for a person to know it is theirs, not enough for a page left open to tell it. */
function maskedEmail(email: string): string {
  const at = email.indexOf('@');
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

const querySchema = z.object({ token: z.string().max(2048).optional() });

/**
 * The pages of the links every visitor mail carries. Each GET shows a page with one button (a link
 * scanner's GET changes nothing); the button's POST acts. Their own scope takes the form-encoded body
 * those send (and a mail client's one-click POST, RFC 8058); the API elsewhere still refuses one.
 *
 * - `/unsubscribe?token=`: puts the address on the suppression list.
 * - `/confirm-email?token=`: the address proves it wants our mail (verified), and the work waiting for
 *   it (a transcript) is enqueued, once however often it is opened.
 */
export async function mailLinkRoutes(app: FastifyInstance, options: { policy: MailPolicy; sessionSecret: string }): Promise<void> {
  const { policy, sessionSecret: secret } = options;
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => done(null, body));
  const invalidUnsubscribe = page('This link is not valid', `<p>This unsubscribe link is not valid. Use the link in the newest email we sent you, or write to <a href="mailto:${brand.supportEmail}">${brand.supportEmail}</a>.</p>`);
  const invalidConfirmation = page('This link is not valid', `<p>This confirmation link is not valid, or has expired (links last 7 days). Ask for the email again from the chat on our website.</p>`);
  // The pages' no-referrer policy makes a browser's form post say `Origin: null`, which the Origin
  // check refuses when the browser holds our cookies: these pages' forms name their own origin.
  const form = (path: string, token: string, label: string) =>
    `<form method="post" action="${escapeHtml(`${path}?token=${encodeURIComponent(token)}`)}"><button type="submit">${escapeHtml(label)}</button></form>`;

  app.get(unsubscribePath, async (request, reply) => {
    const { token } = querySchema.catch({}).parse(request.query);
    const email = token === undefined ? undefined : checkUnsubscribeToken(secret, token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!email || token === undefined) return reply.code(400).send(invalidUnsubscribe);
    reply.header('referrer-policy', 'same-origin');
    return page(
      `Unsubscribe from ${brand.product} emails`,
      // The link is in chat mails and in lead confirmations alike.
      `<p>Stop the emails from ${brand.product} about your requests and chats to <strong>${escapeHtml(maskedEmail(email))}</strong>?</p>${form(unsubscribePath, token, 'Unsubscribe')}`,
    );
  });

  app.post(unsubscribePath, async (request, reply) => {
    const { token } = querySchema.catch({}).parse(request.query);
    const email = token === undefined ? undefined : checkUnsubscribeToken(secret, token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!email) return reply.code(400).send(invalidUnsubscribe);
    await app.write((tx) => policy.suppress(tx, email, 'unsubscribed'));
    return page("You're unsubscribed", `<p>We won't email <strong>${escapeHtml(maskedEmail(email))}</strong> about your requests and chats any more. You can still chat with us on the website any time.</p>`);
  });

  const confirmationOf = (token: string | undefined) => {
    if (token === undefined) return undefined;
    const check = checkLink(secret, addressConfirmationLink, token, Date.now());
    const id = check.ok ? Number(check.fields.confirmation) : Number.NaN;
    return check.ok && Number.isSafeInteger(id) && id > 0 ? { address: check.fields.address, id, token } : undefined;
  };

  app.get(confirmAddressPath, async (request, reply) => {
    const confirmation = confirmationOf(querySchema.catch({}).parse(request.query).token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!confirmation) return reply.code(400).send(invalidConfirmation);
    reply.header('referrer-policy', 'same-origin');
    return page(
      'Confirm your email address',
      `<p>Confirm that <strong>${escapeHtml(maskedEmail(confirmation.address))}</strong> is yours and should get the conversation you asked for from ${brand.product}.</p>${form(confirmAddressPath, confirmation.token, 'Confirm my address')}`,
    );
  });

  app.post(confirmAddressPath, async (request, reply) => {
    const confirmation = confirmationOf(querySchema.catch({}).parse(request.query).token);
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    if (!confirmation) return reply.code(400).send(invalidConfirmation);
    const found = await app.write(async (tx) => {
      const row = await findConfirmation(tx.db, confirmation.id);
      // Erased since (a data request), or a token of another address: nothing to confirm.
      if (!row || row.address !== confirmation.address) return false;
      await policy.markVerified(tx, row.address);
      if (await markConfirmed(tx.db, row.id, Date.now())) {
        const payload = JSON.parse(row.thenPayload) as Record<string, unknown>;
        tx.enqueue({ kind: row.thenKind, payload, dedupeKey: `${row.thenKind}:confirmed:${row.id}` });
      }
      return true;
    });
    if (!found) return reply.code(400).send(invalidConfirmation);
    return page('Thanks, your address is confirmed', `<p>What you asked for is on its way to <strong>${escapeHtml(maskedEmail(confirmation.address))}</strong>. It should arrive in a minute or two.</p>`);
  });
}
