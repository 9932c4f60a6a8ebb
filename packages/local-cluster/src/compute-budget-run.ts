/**
 * The keeper's settle transactions open with one ComputeBudget `SetComputeUnitLimit`. In a
 * transaction that also addresses a reference program, that instruction is a run of builtins of
 * its own: an internal LiteSVM transaction (inner-runner.ts) that changes no account (its fee is
 * put back) and logs two lines and 150 units, the same for the same 5 bytes every time. It was
 * one of the ~5 internal transactions of a settle (issue 31, thirteenth pass), so its outcome is
 * kept per ledger and data: the first run executes in LiteSVM; later ones answer the same logs
 * and units without executing. Only a success is kept, and only reused while the ledger's payer
 * holds at least what it held then (the one input besides the data that could make it fail:
 * paying the internal fee).
 */
import type { Keypair, TransactionInstruction } from '@solana/web3.js';
import { ComputeBudgetProgram } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { addressOf } from '@pmx/programs';
import { payerKeyOf, runInner, type InnerRunResult } from './inner-runner.js';
import { readAccount } from './svm-accounts.js';

const COMPUTE_BUDGET = ComputeBudgetProgram.programId.toBase58();
const SET_COMPUTE_UNIT_LIMIT = 2;

interface Kept {
  logs: readonly string[];
  unitsConsumed: number;
  payerLamports: bigint;
}

const kept = new WeakMap<LiteSVM, Map<string, Kept>>();

/** The kept outcome's key when `instructions` is exactly one account-less SetComputeUnitLimit; else null. */
function keyOf(instructions: readonly TransactionInstruction[]): string | null {
  if (instructions.length !== 1) return null;
  const ix = instructions[0]!;
  if (ix.keys.length !== 0 || ix.data.length !== 5 || ix.data[0] !== SET_COMPUTE_UNIT_LIMIT) return null;
  return addressOf(ix.programId) === COMPUTE_BUDGET ? ix.data.toString('hex') : null;
}

/** `runInner`, answered from the kept outcome for a lone SetComputeUnitLimit seen before. */
export function runBuiltins(svm: LiteSVM, payer: Keypair, instructions: TransactionInstruction[]): InnerRunResult {
  const key = keyOf(instructions);
  if (key === null) return runInner(svm, payer, instructions);
  const payerLamports = readAccount(svm, addressOf(payerKeyOf(payer)))?.lamports ?? 0n;
  let byData = kept.get(svm);
  const known = byData?.get(key);
  if (known && payerLamports >= known.payerLamports) return { logs: [...known.logs], unitsConsumed: known.unitsConsumed, failure: null };
  const result = runInner(svm, payer, instructions);
  if (!result.failure) {
    if (!byData) kept.set(svm, (byData = new Map()));
    byData.set(key, { logs: [...result.logs], unitsConsumed: result.unitsConsumed, payerLamports });
  }
  return result;
}
