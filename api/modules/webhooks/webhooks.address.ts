import dns from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where a webhook may go. An admin's URL must not let the server probe the operator's own network, so
 * only addresses ipaddr.js calls `unicast` are reached: every named special range is refused, IPv4
 * (private, loopback, link-local, carrier-grade NAT, reserved, broadcast, multicast, unspecified) and IPv6
 * (loopback, unspecified, link-local, unique-local, multicast, IPv4-mapped `::ffff:0:0/96`, and
 * IPv4-compatible `::/96` (the one range checked by its CIDR: the library calls it unicast), NAT64 `64:ff9b::/96`, 6to4 `2002::/16`, Teredo `2001::/32`, documentation and the
 * rest). A list kept by hand missed some of these; the library's names are the one list.
 */
export class WebhookAddressError extends Error {}

/** Ports a webhook may use, unless WEBHOOK_ALLOW_PRIVATE: the web's own, not any service on a host. */
export const webhookPorts = ['80', '443', '8443'] as const;

/** IPv4-compatible IPv6 (`::/96`, deprecated): ipaddr.js calls it unicast, yet `::7f00:1` is 127.0.0.1 on some stacks. */
const ipv4Compatible = ipaddr.parseCIDR('::/96');

/** True for an address a webhook may not reach: anything but a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return true;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && parsed.match(ipv4Compatible)) return true;
  return parsed.range() !== 'unicast';
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/** The port a URL connects to, as text ('' in a URL is its scheme's default). */
function portOf(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/**
 * Refuses (WebhookAddressError) a URL with a user name or password in it (never stored: it would be a
 * secret in plain sight), and unless `allowPrivate` one that is not https, uses another port than 80,
 * 443 or 8443, or whose host is, or resolves to, anything but a public unicast address. At
 * subscription; the delivery checks the address again as it connects.
 */
export async function checkWebhookUrl(url: URL, allowPrivate: boolean): Promise<void> {
  if (url.username !== '' || url.password !== '') {
    throw new WebhookAddressError('The URL must not hold a user name or password: put credentials in the receiver, the signature proves the sender');
  }
  if (allowPrivate) return;
  if (url.protocol !== 'https:') throw new WebhookAddressError('The URL must start with https://');
  if (!(webhookPorts as readonly string[]).includes(portOf(url))) {
    throw new WebhookAddressError(`The URL's port must be one of ${webhookPorts.join(', ')}`);
  }
  const host = hostOf(url);
  const addresses = isIP(host) ? [host] : await resolveAll(host);
  if (addresses.some(isPrivateAddress)) {
    throw new WebhookAddressError(`${host} is a private or special-purpose address; webhooks go to public addresses only`);
  }
}

async function resolveAll(host: string): Promise<string[]> {
  try {
    return (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw new WebhookAddressError(`${host} does not resolve to an address`);
  }
}

/**
 * The `lookup` a delivery's socket connects with: the address the name resolves to now (DNS may have
 * changed since the subscription) is refused when private, so what is checked is what is reached.
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, list) => {
      if (error) return callback(error, '', 0);
      const blocked = !allowPrivate && list.some((entry) => isPrivateAddress(entry.address));
      if (blocked) return callback(new WebhookAddressError(`${hostname} resolves to a private address`), '', 0);
      if (options.all) return callback(null, list, 0);
      const first = list[0];
      if (!first) return callback(new WebhookAddressError(`${hostname} does not resolve to an address`), '', 0);
      callback(null, first.address, first.family);
    });
  };
}

/** Whether a delivery may connect to this URL before any lookup: its port, and its host when an address literal. */
export function deliveryAllowed(url: URL, allowPrivate: boolean): boolean {
  if (allowPrivate) return true;
  if (url.username !== '' || url.password !== '') return false;
  if (!(webhookPorts as readonly string[]).includes(portOf(url))) return false;
  const host = hostOf(url);
  return isIP(host) === 0 || !isPrivateAddress(host);
}
