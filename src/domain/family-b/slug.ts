/**
 * URL-safe slugs for markets confirmed through Family B: lowercase ASCII words joined by '-',
 * suffixed with the integer id so they are unique without a lookup ("Will BTC close > 100k?" in
 * market 7 → "will-btc-close-100k-7").
 */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export function slugFor(title: string, marketId: bigint): string {
  const words = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/g, '');
  return words === '' ? `market-${marketId}` : `${words}-${marketId}`;
}
