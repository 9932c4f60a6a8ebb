/**
 * Executes one verified transaction against LiteSVM, all or nothing. Transactions made only of
 * builtin instructions go to LiteSVM as they are (it charges the fee and rolls back failures
 * itself). Transactions that address a reference program run instruction by instruction: runs of
 * builtins as internal LiteSVM transactions, program instructions through their handler. Every
 * touched account is snapshotted first; any failure restores them all and charges only the fee.
 */
import { PublicKey, TransactionInstruction, type Keypair } from '@solana/web3.js';
import { addressOf, MAX_TX_ACCOUNT_LOCKS, publicKeyOf } from '@pmx/programs';
import type { LiteSVM } from 'litesvm';
import type { InnerInstruction } from 'litesvm/dist/internal.js';
import { ED25519_PROGRAM, precompileSignatureCount, verifyEd25519Precompiles } from './ed25519-precompile.js';
import { ExecutionContext } from './execution-context.js';
import { failureText, InstructionFailure, InvokeError } from './instruction-failure.js';
import { runBuiltins } from './compute-budget-run.js';
import { serializeInstructionsSysvar, SYSVAR_INSTRUCTIONS_ID, withCurrentIndex } from './instructions-sysvar.js';
import type { ParsedTransaction } from './parsed-transaction.js';
import { ProgramError, type ProgramHandler } from './program-runtime.js';
import { writeAccount, type StoredAccount } from './svm-accounts.js';
import { nativeSend } from './svm-raw.js';
import { readTouchedAccount, TouchedAccounts } from './touched-accounts.js';
import { instructionErr, isFailed, isRecordedError, mapLiteSvmError, type TransactionErr } from './tx-errors.js';

export const LAMPORTS_PER_SIGNATURE = 5000n;
/** commit: land it (fee charged even on failure); preflight: land only if it succeeds; simulate: never land. */
export type ExecutionMode = 'commit' | 'preflight' | 'simulate';

export interface ExecutionOutcome {
  err: TransactionErr | null;
  /** False when the transaction would not land on a real cluster (fee payer broke, …, or preflight failed). */
  landed: boolean;
  logs: string[];
  unitsConsumed: number;
  fee: bigint;
  touched: TouchedAccounts;
  /** Post-state of every account this transaction changed (empty unless it landed). */
  changed: Map<string, StoredAccount | null>;
}

export interface ExecutorDeps {
  svm: LiteSVM;
  handlers: ReadonlyMap<string, ProgramHandler>;
  payer: Keypair;
  clock: () => { slot: bigint; unixTimestamp: bigint };
}

/** True when a reference program (a handler) runs any of its instructions: then not LiteSVM alone. */
export function usesHandlers(handlers: ReadonlyMap<string, ProgramHandler>, p: ParsedTransaction): boolean {
  return p.instructions.some((ix) => handlers.has(p.accountKeys[ix.programIndex]!));
}

/**
 * `runtimeVerifies`: LiteSVM checks the signatures as it executes (only for a transaction it runs
 * alone); a refusal is its SignatureFailure, which never lands and changes nothing.
 */
export function executeTransaction(
  deps: ExecutorDeps,
  p: ParsedTransaction,
  mode: ExecutionMode,
  runtimeVerifies = false,
): ExecutionOutcome {
  const touched = new TouchedAccounts(deps.svm);
  for (const key of p.accountKeys) touched.touch(key);
  const fee = LAMPORTS_PER_SIGNATURE * BigInt(p.numSigners + precompileSignatureCount(p));
  const usesHandler = usesHandlers(deps.handlers, p);
  if (usesHandler && runtimeVerifies) throw new Error('the runtime verifies only the transactions it runs alone');
  // LiteSVM alone never changes a read-only account; a handler's writes are checked in full.
  const writable = usesHandler ? undefined : writableKeys(p);
  const run = writable ? runInSvm(deps, p, runtimeVerifies, writable) : runWithHandlers(deps, p, touched, fee);
  const landed = run.err === null || (mode === 'commit' && isRecordedError(run.err));
  if (mode === 'simulate' || !landed) {
    touched.restoreAll();
  } else if (usesHandler) {
    if (run.err !== null) touched.restoreAll();
    chargeFee(deps.svm, p.accountKeys[0]!, fee);
  }
  const changed =
    landed && mode !== 'simulate'
      ? touched.changed(writable && ((a) => writable.has(a)), run.programs)
      : new Map<string, StoredAccount | null>();
  return { ...run, landed, fee, touched, changed };
}

function writableKeys(p: ParsedTransaction): Set<string> {
  const out = new Set<string>();
  p.accountKeys.forEach((key, i) => {
    if (p.writable[i]) out.add(key);
  });
  return out;
}

function chargeFee(svm: LiteSVM, feePayer: string, fee: bigint): void {
  const acc = readTouchedAccount(svm, feePayer);
  if (acc) writeAccount(svm, feePayer, { ...acc, lamports: acc.lamports - fee });
}

interface RunResult {
  err: TransactionErr | null;
  logs: string[];
  unitsConsumed: number;
  /** Every program LiteSVM ran (its instructions' and their CPIs'), when it ran the transaction alone. */
  programs?: ReadonlySet<string>;
}

/**
 * The programs a transaction LiteSVM ran alone executed: its instructions' programs and every
 * program they invoked (LiteSVM records the CPIs as inner instructions, indexes into the same keys).
 */
function programsRun(p: ParsedTransaction, inner: InnerInstruction[][]): Set<string> {
  const out = new Set<string>();
  for (const ix of p.instructions) out.add(p.accountKeys[ix.programIndex]!);
  for (const list of inner) for (const ix of list) out.add(p.accountKeys[ix.instruction().programIdIndex()]!);
  return out;
}

function runInSvm(deps: ExecutorDeps, p: ParsedTransaction, sigverify: boolean, writable: ReadonlySet<string>): RunResult {
  const result = nativeSend(deps.svm, p.raw, p.version, sigverify, [...writable]);
  const meta = isFailed(result) ? result.meta() : result;
  return {
    err: isFailed(result) ? mapLiteSvmError(result) : null,
    logs: meta.logs(),
    unitsConsumed: Number(meta.computeUnitsConsumed()),
    programs: programsRun(p, meta.innerInstructions()),
  };
}

function runWithHandlers(deps: ExecutorDeps, p: ParsedTransaction, touched: TouchedAccounts, fee: bigint): RunResult {
  const payer = touched.preState(p.accountKeys[0]!);
  if (!payer) return { err: 'AccountNotFound', logs: [], unitsConsumed: 0 };
  if (payer.owner !== '11111111111111111111111111111111') return { err: 'InvalidAccountForFee', logs: [], unitsConsumed: 0 };
  if (payer.lamports < fee) return { err: 'InsufficientFundsForFee', logs: [], unitsConsumed: 0 };
  // LiteSVM refuses these itself on the builtin-only path; Agave's limit without the raised-limit feature.
  if (p.accountKeys.length > MAX_TX_ACCOUNT_LOCKS) return { err: 'TooManyAccountLocks', logs: [], unitsConsumed: 0 };
  // Precompiles are verified before anything executes, against the whole transaction.
  const precompile = verifyEd25519Precompiles(p);
  if (precompile) return { err: instructionErr(precompile.index, { Custom: precompile.code }), logs: [], unitsConsumed: 0 };
  const logs: string[] = [];
  let units = 0;
  const signers = new Set(p.accountKeys.slice(0, p.numSigners));
  // Each built once: the instructions sysvar reads them all, then each runs (its reader only reads).
  const built: TransactionInstruction[] = [];
  const toIx = (i: number): TransactionInstruction => {
    const ix = p.instructions[i]!;
    return (built[i] ??= new TransactionInstruction({
      programId: publicKeyOf(p.accountKeys[ix.programIndex]!),
      keys: ix.accounts.map((a) => ({ pubkey: publicKeyOf(p.accountKeys[a]!), isSigner: a < p.numSigners, isWritable: p.writable[a]! })),
      data: Buffer.from(ix.data),
    }));
  };
  const programOf = (i: number) => p.accountKeys[p.instructions[i]!.programIndex]!;
  let sysvar: Buffer | undefined;
  try {
    for (let i = 0; i < p.instructions.length;) {
      const programId = programOf(i);
      const handler = deps.handlers.get(programId);
      if (handler) {
        const ix = toIx(i);
        // The instructions sysvar is readable by a handler the transaction passes it to.
        if (ix.keys.some((k) => k.pubkey.equals(SYSVAR_INSTRUCTIONS_ID))) {
          sysvar ??= serializeInstructionsSysvar(p.instructions.map((_, k) => toIx(k)));
        }
        const state = { touched, signers, logs, feePayer: p.accountKeys[0]!, instructionsSysvar: sysvar && withCurrentIndex(sysvar, i) };
        units += runHandler(deps, handler, ix, i, state);
        i += 1;
        continue;
      }
      // Ed25519 instructions were verified above and have no effect; LiteSVM would resolve their
      // cross-instruction offsets against the internal transaction, not this one.
      if (programId === ED25519_PROGRAM) {
        i += 1;
        continue;
      }
      let end = i;
      while (end < p.instructions.length && !deps.handlers.has(programOf(end)) && programOf(end) !== ED25519_PROGRAM) end++;
      const ixs = Array.from({ length: end - i }, (_, k) => toIx(i + k));
      const result = runBuiltins(deps.svm, deps.payer, ixs);
      logs.push(...result.logs);
      units += result.unitsConsumed;
      if (result.failure) throw new InstructionFailure(i + result.failure.index, result.failure.inner);
      i = end;
    }
    return { err: null, logs, unitsConsumed: units };
  } catch (e) {
    if (e instanceof InstructionFailure) return { err: instructionErr(e.index, e.inner), logs, unitsConsumed: units };
    throw e;
  }
}

interface HandlerRunState {
  touched: TouchedAccounts;
  signers: ReadonlySet<string>;
  logs: string[];
  feePayer: string;
  /** The serialized instructions sysvar with this instruction's index, when the instruction passes it. */
  instructionsSysvar: Buffer | undefined;
}

function runHandler(deps: ExecutorDeps, handler: ProgramHandler, ix: TransactionInstruction, index: number, s: HandlerRunState): number {
  const id = addressOf(handler.programId);
  let units = 0;
  s.logs.push(`Program ${id} invoke [1]`);
  const clock = deps.clock();
  const ctx = new ExecutionContext({
    svm: deps.svm,
    payer: deps.payer,
    touched: s.touched,
    programId: handler.programId,
    signers: s.signers,
    slot: clock.slot,
    unixTimestamp: clock.unixTimestamp,
    feePayer: new PublicKey(s.feePayer),
    logs: s.logs,
    instructionsSysvar: s.instructionsSysvar,
    addUnits: (u) => {
      units += u;
    },
  });
  try {
    handler.execute({ programId: handler.programId, keys: ix.keys, data: ix.data }, ctx);
  } catch (e) {
    let inner: unknown;
    if (e instanceof InvokeError) {
      inner = e.inner;
    } else if (e instanceof ProgramError) {
      inner = { Custom: e.code };
      s.logs.push(`Program log: AnchorError occurred. Error Code: ${e.errorName}. Error Number: ${e.code}. Error Message: ${e.message}.`);
    } else {
      inner = 'ProgramFailedToComplete';
      s.logs.push(`Program log: panicked at '${(e as Error)?.message ?? String(e)}'`);
    }
    s.logs.push(`Program ${id} consumed ${units} of 200000 compute units`, `Program ${id} failed: ${failureText(inner)}`);
    throw new InstructionFailure(index, inner);
  }
  s.logs.push(`Program ${id} consumed ${units} of 200000 compute units`, `Program ${id} success`);
  return units;
}
