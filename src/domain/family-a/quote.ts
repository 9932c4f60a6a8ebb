/**
 * Quote lifetime (spec: 120000 ms). A payment honours a quote when it landed no later than
 * `issuedAt + ttl` and not before the quote existed. Block times have one-second resolution, so
 * "before issuance" allows one second of slack; expiry allows none beyond the floor of blockTime.
 */
export const QUOTE_TTL_MS = 120_000;

export interface QuoteTimes {
  issuedAt: string;
  expiresAt: string;
  ttlMs: number;
}

export function quoteTimes(nowMs: number, ttlMs = QUOTE_TTL_MS): QuoteTimes {
  return { issuedAt: new Date(nowMs).toISOString(), expiresAt: new Date(nowMs + ttlMs).toISOString(), ttlMs };
}

export type QuoteCheck = 'ok' | 'expired' | 'before_quote';

/** `paidAtMs`: the payment's block time (ms) when known, else the time it was presented. */
export function checkQuoteAt(issuedAtMs: number, paidAtMs: number, ttlMs = QUOTE_TTL_MS): QuoteCheck {
  if (paidAtMs > issuedAtMs + ttlMs) return 'expired';
  if (paidAtMs < issuedAtMs - 1_000) return 'before_quote';
  return 'ok';
}
