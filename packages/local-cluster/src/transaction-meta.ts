/**
 * The `meta` column of a recorded transaction: everything of its record that the row's other
 * columns do not hold, as JSON with bigints as decimal strings (built by hand: a JSON.stringify
 * replacer costs more than the rest).
 *
 * Two fields are written compactly (issue 31: the record is a sixth of a group commit's WAL
 * pages; a transfer's meta was 1.6 KB): `signers` as their count, since a transaction's signers
 * are always the first of its account keys, and a post token balance whose account, mint, owner,
 * program and decimals are those of a pre balance as `{ "p": <index of that pre balance>,
 * "amount" }`. Metas written before, with the full arrays, are read as they are.
 */
import type { TokenBalance } from './token-balances.js';

/** The fields of a record the meta column holds. */
export interface RecordMeta {
  logs: string[];
  fee: bigint;
  unitsConsumed: number;
  accountKeys: string[];
  signers: string[];
  writable: boolean[];
  preBalances: bigint[];
  postBalances: bigint[];
  preTokenBalances: TokenBalance[];
  postTokenBalances: TokenBalance[];
}

type StoredBalance = Omit<TokenBalance, 'amount'> & { amount: string };
type SameAsPre = { p: number; amount: string };

const str = (v: bigint): string => v.toString();
const stored = (t: TokenBalance): StoredBalance => ({ ...t, amount: t.amount.toString() });

function sameAccount(a: TokenBalance, b: TokenBalance): boolean {
  return (
    a.accountIndex === b.accountIndex &&
    a.mint === b.mint &&
    a.owner === b.owner &&
    a.programId === b.programId &&
    a.decimals === b.decimals
  );
}

function isPrefix(signers: readonly string[], keys: readonly string[]): boolean {
  return signers.every((s, i) => keys[i] === s);
}

export function metaJson(rec: RecordMeta): string {
  const pre = rec.preTokenBalances;
  const post = rec.postTokenBalances.map((t, i): StoredBalance | SameAsPre => {
    // Balances are in account-key order: the pre balance of the same account is usually at the same index.
    const at = pre[i];
    const p = at && sameAccount(at, t) ? i : pre.findIndex((b) => sameAccount(b, t));
    return p >= 0 ? { p, amount: t.amount.toString() } : stored(t);
  });
  return JSON.stringify({
    logs: rec.logs,
    fee: rec.fee.toString(),
    unitsConsumed: rec.unitsConsumed,
    accountKeys: rec.accountKeys,
    // Always a prefix of the keys (record-builder.ts); anything else is kept in full.
    signers: isPrefix(rec.signers, rec.accountKeys) ? rec.signers.length : rec.signers,
    writable: rec.writable,
    preBalances: rec.preBalances.map(str),
    postBalances: rec.postBalances.map(str),
    preTokenBalances: pre.map(stored),
    postTokenBalances: post,
  });
}

export function parseMeta(json: string): RecordMeta {
  const m = JSON.parse(json) as Record<string, unknown>;
  const bigs = (v: unknown): bigint[] => (v as string[]).map((x) => BigInt(x));
  const accountKeys = m.accountKeys as string[];
  const pre = (m.preTokenBalances as StoredBalance[]).map((t) => ({ ...t, amount: BigInt(t.amount) }));
  const post = (m.postTokenBalances as (StoredBalance | SameAsPre)[]).map((t) =>
    'p' in t ? { ...pre[t.p]!, amount: BigInt(t.amount) } : { ...t, amount: BigInt(t.amount) },
  );
  return {
    logs: m.logs as string[],
    fee: BigInt(m.fee as string),
    unitsConsumed: m.unitsConsumed as number,
    accountKeys,
    signers: typeof m.signers === 'number' ? accountKeys.slice(0, m.signers) : (m.signers as string[]),
    writable: m.writable as boolean[],
    preBalances: bigs(m.preBalances),
    postBalances: bigs(m.postBalances),
    preTokenBalances: pre,
    postTokenBalances: post,
  };
}
