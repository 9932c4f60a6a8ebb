/**
 * GET /v2/config's and the quote's answers, kept while the chain's account write version stands
 * (issue 31; the mechanism is src/chain/kept-answers.ts). Their `make` must read only chain
 * accounts (no clock, no slot, no index), so while no account is written a kept answer is what a
 * fresh read would make.
 */
import type { ChainClient } from '../../chain/chain-client.js';
import { keptUnderChainVersion } from '../../chain/kept-answers.js';

/**
 * `owner`'s kept value under `key`, or `make()` kept; a `make` that throws keeps nothing (its
 * error is the answer, unkept). Undefined when the chain has no version.
 */
export async function keptChainAnswer<T>(chain: ChainClient, owner: object, key: string, make: () => Promise<T>): Promise<T | undefined> {
  const kept = keptUnderChainVersion<T>(chain, owner);
  if (!kept) return undefined;
  let value = kept.get(key);
  if (value === undefined) kept.set(key, (value = await make()));
  return value;
}
