/**
 * Which API family a path belongs to, which decides the error envelope (spec "Response
 * envelopes"). Families A and B share `/v2/markets/`: an integer segment is a Family B market id,
 * anything else a Family A slug. Paths outside the three families (health, docs, metrics, the
 * admin dashboard) answer in Family A's structured envelope.
 */
export type Family = 'A' | 'B' | 'C';

const B_MARKET_ACTIONS = new Set(['create', 'confirm']);
const B_ROOTS = new Set(['config', 'positions', 'redeem-all', 'claim-all-fees', 'dev']);

export function familyOf(url: string): Family {
  const path = url.split('?', 1)[0] ?? '';
  const parts = path.split('/').filter(Boolean);
  if (parts[0] !== 'v2') return 'A';
  const root = parts[1];
  if (root === 'clob' || root === 'ws') return 'C';
  if (root === 'markets') {
    const segment = parts[2];
    if (segment === undefined || segment === 'search') return 'A';
    if (B_MARKET_ACTIONS.has(segment) || /^\d+$/.test(segment)) return 'B';
    return 'A';
  }
  if (root !== undefined && B_ROOTS.has(root)) return 'B';
  if (root === 'admin') return 'A';
  return 'B';
}
