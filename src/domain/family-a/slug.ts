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
  return base.length > 0 ? base : 'market';
}

/** All digits would collide with Family B's integer ids on /v2/markets/{id}. */
export function isValidSlug(slug: string): boolean {
  return slug.length <= 80 && SLUG_RE.test(slug) && !/^\d+$/.test(slug);
}

/** Full-text query terms: words of letters/digits, each matched as a prefix, all required. */
export function searchTerms(q: string): string[] {
  return (q.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}
