/** URL-safe slugs: lowercase ASCII words joined by dashes, at most 80 characters. */
export const SLUG_PATTERN = '^[a-z0-9]+(?:-[a-z0-9]+)*$';
const SLUG_RE = new RegExp(SLUG_PATTERN);

export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64)
    .replace(/-+$/, '');
  if (base.length === 0) return 'market';
  // "2026" would be Family B's market 2026 on /v2/markets/{id}; "1e10" a malformed id there.
  return isNumberLikeSlug(base) ? `market-${base}` : base;
}

/**
 * Slugs that /v2/markets/{x} reads as a number (api/families.ts `isNumberLike`) restricted to the
 * slug alphabet: all digits, exponent forms (`1e10`, `2e-5`) and hex (`0x1f`).
 */
function isNumberLikeSlug(slug: string): boolean {
  return /^(\d+(e-?\d+)?|0x[0-9a-f]+)$/.test(slug);
}

/** A number-like slug would collide with Family B's integer ids on /v2/markets/{id} or be unreachable. */
export function isValidSlug(slug: string): boolean {
  return slug.length <= 80 && SLUG_RE.test(slug) && !isNumberLikeSlug(slug);
}

/** Full-text query terms: words of letters/digits, each matched as a prefix, all required. */
export function searchTerms(q: string): string[] {
  return (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}
