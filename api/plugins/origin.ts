/**
 * Whether a browser request came from a page of this site, by its Origin (or Referer) header: the
 * site's public URL, or the host the request was addressed to (the Host header), whatever the
 * deployment. Browsers send Origin on every cross-site state-changing call and websocket handshake,
 * so a request without one is not another site's page. A header that is not a URL is refused.
 */
export function isSameSiteOrigin(origin: string | undefined, host: string | undefined, publicUrl: string): boolean {
  if (!origin) return true;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false;
  }
  if (parsed.origin === publicUrl) return true;
  return Boolean(host) && parsed.host === host;
}
