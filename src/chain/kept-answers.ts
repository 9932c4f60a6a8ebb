/**
 * Answers made from chain accounts, kept while the in-process ledger's account write version
 * stands (issue 31): GET /v2/config and the quote read ledger accounts, which the read-only
 * SQLite connection's data_version (db/read-answers.ts) does not cover. With the embedded
 * cluster every account write changes the version (packages/local-cluster write-version.ts), so
 * while it stands a repeat read is one number compared and a Map lookup instead of an account
 * copy, a decode, the math and a serialization.
 *
 * The version is read before `make` runs, so a kept value is never older than the version it is
 * filed under: a write landing while `make` awaits leaves a value newer than its version, and the
 * next call sees the version move and drops it. Only values that depend on account bytes alone
 * (no clock, no slot, no index) may be kept. A chain without the version (a remote RPC cluster)
 * keeps nothing: the caller takes its plain path.
 */
import type { ChainClient } from './chain-client.js';

/** Kept values per owner; past this an owner's set is dropped (query strings are the caller's to choose). */
export const KEPT_CHAIN_ANSWERS_MAX = 10_000;

interface Kept {
  seen: number;
  byOwner: Map<object, Map<string, unknown>>;
}

const keptOf = new WeakMap<ChainClient, Kept>();

/**
 * The values `owner` keeps under `chain`'s version read now, emptied as soon as any account is
 * written; undefined when the chain has no version. Fill it only with values made from account
 * reads begun after this call.
 */
export function keptUnderChainVersion<T>(chain: ChainClient, owner: object): Map<string, T> | undefined {
  const version = chain.accountWriteVersion?.();
  if (version === undefined) return undefined;
  let kept = keptOf.get(chain);
  if (!kept) keptOf.set(chain, (kept = { seen: version, byOwner: new Map() }));
  else if (kept.seen !== version) {
    kept.seen = version;
    kept.byOwner.clear();
  }
  let values = kept.byOwner.get(owner) as Map<string, T> | undefined;
  if (!values) kept.byOwner.set(owner, (values = new Map<string, T>()));
  if (values.size >= KEPT_CHAIN_ANSWERS_MAX) values.clear();
  return values;
}
