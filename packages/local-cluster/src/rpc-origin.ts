/**
 * Browser guard for the cluster's ports. Browsers add an `Origin` header to cross-origin fetches
 * and to every WebSocket handshake; Node, CLI and server clients send none. So: no Origin → a
 * local program, allowed; an Origin whose host is loopback (localhost, *.localhost, 127.x.y.z,
 * [::1]) on any port and http(s) scheme → a local dev page, allowed; anything else (another
 * site, `null` from file:// or sandboxed frames) → refused, so a page a developer happens to
 * visit cannot drive the local ledger.
 */
export function isAllowedOrigin(origin: string | undefined): boolean {
  if (origin === undefined || origin === '') return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const host = url.hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
}
