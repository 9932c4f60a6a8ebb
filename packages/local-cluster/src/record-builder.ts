/**
 * Builds the durable record of a landed transaction from its execution outcome: balances and
 * token balances before (the executor's snapshot) and after (current state), signers, fee, logs.
 */
import type { LiteSVM } from 'litesvm';
import type { ParsedTransaction } from './parsed-transaction.js';
import type { StoredAccount } from './svm-accounts.js';
import { collectTokenBalances } from './token-balances.js';
import { readTouchedAccount } from './touched-accounts.js';
import type { ExecutionOutcome } from './transaction-executor.js';
import type { TransactionRecord } from './transaction-record.store.js';

export function buildRecord(svm: LiteSVM, p: ParsedTransaction, out: ExecutionOutcome, slot: number, blockTime: number): TransactionRecord {
  // The executor has read every touched account before and after: only an account it did not
  // touch (a mint, for its decimals) is read again, and it is the same before as after.
  const untouched = new Map<string, StoredAccount | null>(); // read once for pre and post alike
  const readOnce = (a: string) => {
    if (!untouched.has(a)) untouched.set(a, readTouchedAccount(svm, a));
    return untouched.get(a) ?? null;
  };
  const pre = (a: string) => (out.touched.has(a) ? out.touched.preState(a) : readOnce(a));
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
