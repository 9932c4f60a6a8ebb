/**
 * The orderbook's `hash`: hex SHA-256 of a book's full aggregated levels, so that a poller can
 * skip a book that did not change (docs/family-c.md, "Market data"). The canonical text is one
 * line per level, `<outcome>:<bids|asks>:<price>:<size>\n`, in the order yes bids, yes asks, no
 * bids, no asks, each best first (bids high to low, asks low to high), every level whatever
 * `depth` was asked; sizes are the decimal raw units the API shows. An empty book hashes the
 * empty text. Only levels count: best prices follow from them, and a last price or a seq that
 * moves without a level changing leaves the hash as it was.
 */
import { createHash } from 'node:crypto';
import type { BookView } from './book-snapshot.js';

export function bookHash(sides: Pick<BookView, 'yes' | 'no'>): string {
  const hash = createHash('sha256');
  for (const outcome of ['yes', 'no'] as const) {
    for (const side of ['bids', 'asks'] as const) {
      for (const level of sides[outcome][side]) hash.update(`${outcome}:${side}:${level.price}:${level.size}\n`);
    }
  }
  return hash.digest('hex');
}

/** The hash of a book with no level. */
export const EMPTY_BOOK_HASH = bookHash({ yes: { bids: [], asks: [] }, no: { bids: [], asks: [] } });
