import { lookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import dns from 'node:dns';

/**
 * The addresses a webhook must not reach (a receiver on the operator's own network would let an
 * admin's URL probe it): IPv4 and IPv6 private, loopback, link-local, unique-local, unspecified,
 * shared (CGNAT), multicast and reserved ranges. Node's BlockList matches IPv4-mapped IPv6
 * (`::ffff:127.0.0.1`) against the IPv4 ranges.
 */
const refused = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  refused.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  refused.addSubnet(network, prefix, 'ipv6');
}

export class WebhookAddressError extends Error {}

/** True for an address a webhook may not reach. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return refused.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/** The URL's host without IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Refuses (WebhookAddressError) a URL whose host is, or resolves to, a private address: every
 * address it resolves to must be public. At subscription; the delivery checks again as it connects.
 */
export async function checkWebhookUrl(url: URL, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  if (url.protocol !== 'https:') throw new WebhookAddressError('The URL must start with https://');
  const host = hostOf(url);
  const addresses = isIP(host) ? [host] : await resolveAll(host);
  if (addresses.some(isPrivateAddress)) {
    throw new WebhookAddressError(`${host} is a private, loopback or link-local address; webhooks go to public addresses only`);
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

/** Whether a delivery may connect to a URL whose host is an address literal (no lookup happens then). */
export function literalHostAllowed(url: URL, allowPrivate: boolean): boolean {
  const host = hostOf(url);
  return allowPrivate || isIP(host) === 0 || !isPrivateAddress(host);
}
