/**
 * Which API family a path belongs to, which decides the error envelope (spec "Response
 * envelopes"). Families A and B share `/v2/markets/`: an integer segment is a Family B market id,
 * anything else a Family A slug; numeric-looking segments and Family B-only actions
 * (`/v2/markets/abc/buy`) are malformed Family B ids and answer in B's envelope. Paths outside the three families (health, docs, metrics, the
 * admin dashboard) answer in Family A's structured envelope.
 */
export type Family = 'A' | 'B' | 'C';

const B_MARKET_ACTIONS = new Set(['create', 'confirm']);
/** `/v2/markets/{x}/<action>` paths that only Family B has: whatever `{x}` is, the caller meant an id. */
const B_ID_ACTIONS = new Set(['init-mints', 'buy', 'sell', 'resolve', 'redeem', 'claim-fees', 'cancel', 'quote']);

/**
 * A segment that spells a number (`-1`, `1.5`, `+5`, `05`, `0x5`, `1e3`, ` 5`) is a malformed id,
 * not a slug. Slugs may start with digits (`2026-world-cup`), so only a whole number matches.
 */
export function isNumberLike(segment: string): boolean {
  let decoded = segment;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // keep the raw segment
  }
  return /^\s*[+-]?((\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?|0[xX][0-9a-fA-F]+)\s*$/.test(decoded);
}
const B_ROOTS = new Set(['config', 'positions', 'redeem-all', 'claim-all-fees', 'dev']);

/** A path segment as the router reads it (find-my-way decodes `%61` to `a`); a malformed escape stays as sent. */
function decodedSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** A URL's path as the router matches it: without the query, each segment decoded (`/%61dmin/x` is `/admin/x`). */
export function routerPath(url: string): string {
  const path = url.split('?', 1)[0] ?? '';
  return path.includes('%') ? path.split('/').map(decodedSegment).join('/') : path;
}

export function familyOf(url: string): Family {
  // Decoded per segment, as the router matches it: `/v2/%61dmin/nodes` is /v2/admin/nodes's route,
  // and its errors must take that route's envelope (another family's fails its response schema).
  const parts = routerPath(url).split('/').filter(Boolean);
  if (parts[0] !== 'v2') return 'A';
  const root = parts[1];
  if (root === 'clob' || root === 'ws') return 'C';
  if (root === 'admin' && parts[2] === 'clob') return 'C'; // orderbook operator routes
  if (root === 'markets') {
    const segment = parts[2];
    if (segment === undefined || segment === 'search') return 'A';
    if (B_MARKET_ACTIONS.has(segment) || /^\d+$/.test(segment) || isNumberLike(segment)) return 'B';
    if (parts[3] !== undefined && B_ID_ACTIONS.has(parts[3])) return 'B';
    return 'A';
  }
  if (root !== undefined && B_ROOTS.has(root)) return 'B';
  if (root === 'admin' || root === 'payments') return 'A'; // /v2/payments/{txHash}: Family A's payment status
  return 'B';
}
