/**
 * A cluster URL as it may be shown to clients and written to logs: RPC providers put API keys in
 * the userinfo or the query string (`https://rpc.example/?api-key=…`), so both are dropped, as is
 * the fragment. What remains names the cluster without granting access to it.
 */
export function publicUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '(invalid url)';
  }
  // Keep the operator's spelling otherwise: no trailing slash added to a bare origin.
  const hadRootSlash = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*\//i.test(raw);
  const path = url.pathname === '/' && !hadRootSlash ? '' : url.pathname;
  return `${url.protocol}//${url.host}${path}`;
}
