/**
 * An orderbook (Family C) market's status as the daemon uses it: the exchange program's
 * (active, paused, resolved) plus 'creating', a catalog row whose on-chain creation is pending.
 * The database column is a plain string; code reads it through these parsers, so an unknown
 * value fails where it is read instead of travelling on as a status nobody handles.
 */
import type { ClobMarketStatus } from '@pmx/programs';

export type BookMarketStatus = 'creating' | ClobMarketStatus;

const CHAIN_STATUSES: readonly string[] = ['active', 'paused', 'resolved'] satisfies ClobMarketStatus[];

export function isClobMarketStatus(value: string): value is ClobMarketStatus {
  return CHAIN_STATUSES.includes(value);
}

/** A status read from the catalog (or a queue): one of the four, or an Error naming it. */
export function parseBookMarketStatus(value: string): BookMarketStatus {
  if (value === 'creating' || isClobMarketStatus(value)) return value;
  throw new Error(`unknown orderbook market status ${JSON.stringify(value)}`);
}
