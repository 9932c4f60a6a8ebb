/**
 * The orderbook's `hash` (GET /v2/clob/markets/{id}/orderbook), recomputed from a local book:
 * hex SHA-256 of one line per level, `<outcome>:<bids|asks>:<price>:<size>\n`, yes bids, yes
 * asks, no bids, no asks, each best first (docs/family-c.md, "Market data"). A bot that polls
 * REST compares hashes instead of levels. WebCrypto, so it runs in node (≥ 20) and browsers.
 */
import type { BookSide } from './messages.js';

export function canonicalBookText(yes: BookSide, no: BookSide): string {
  const sides = { yes, no };
  let text = '';
  for (const outcome of ['yes', 'no'] as const) {
    for (const side of ['bids', 'asks'] as const) {
      for (const level of sides[outcome][side]) text += `${outcome}:${side}:${level.price}:${level.size}\n`;
    }
  }
  return text;
}

export async function bookHash(yes: BookSide, no: BookSide): Promise<string> {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(canonicalBookText(yes, no)));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}
