/**
 * Slugs of markets confirmed through Family B: the title's slug (the catalog's one slugify rule)
 * suffixed with the integer id, so they are unique without a lookup ("Will BTC close > 100k?" in
 * market 7 → "will-btc-close-100k-7").
 */
import { slugify } from '../family-a/slug.js';

export function slugFor(title: string, marketId: bigint): string {
  return `${slugify(title)}-${marketId}`;
}
