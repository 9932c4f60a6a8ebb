/**
 * Builds the durable record of a landed transaction from its execution outcome: balances and
 * token balances before (the executor's snapshot) and after (current state), signers, fee, logs.
 */
import type { ParsedTransaction } from './parsed-transaction.js';
import { collectTokenBalances } from './token-balances.js';
import type { ExecutionOutcome } from './transaction-executor.js';
import type { TransactionRecord } from './transaction-record.store.js';

export function buildRecord(p: ParsedTransaction, out: ExecutionOutcome, slot: number, blockTime: number): TransactionRecord {
  // The executor has read every touched account before and after: an account it did not touch
  // (a mint, for its decimals) is the same before as after, read once (touched-accounts.ts).
  const pre = (a: string) => (out.touched.has(a) ? out.touched.preState(a) : out.touched.untouchedState(a));
  const post = (a: string) => (out.changed.has(a) ? (out.changed.get(a) ?? null) : pre(a));
  return {
    signature: p.signature,
    slot,
    blockTime,
    raw: p.raw,
    err: out.err,
    logs: out.logs,
    fee: out.fee,
    unitsConsumed: out.unitsConsumed,
    accountKeys: p.accountKeys,
    signers: p.accountKeys.slice(0, p.numSigners),
    writable: p.writable,
    preBalances: p.accountKeys.map((a) => pre(a)?.lamports ?? 0n),
    postBalances: p.accountKeys.map((a) => post(a)?.lamports ?? 0n),
    preTokenBalances: collectTokenBalances(p.accountKeys, pre),
    postTokenBalances: collectTokenBalances(p.accountKeys, post),
  };
}
