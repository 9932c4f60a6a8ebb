/**
 * Executes builtin instructions (System, SPL Token, ATA, Memo, Compute Budget, Ed25519) inside
 * LiteSVM on behalf of a transaction that also contains reference-program instructions. They run
 * as an internal transaction whose fee payer is a ledger-held account, so the user is not charged
 * a second fee; that payer's balance is put back afterwards. Signature verification is off in
 * LiteSVM (the ledger verified the outer signatures itself), so signer slots hold unique filler.
 */
import { randomBytes } from 'node:crypto';
import type { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { addressOf, compileLegacyMessage, shortvec } from '@pmx/programs';
import { readAccount, writeAccount } from './svm-accounts.js';
import { nativeSend } from './svm-raw.js';
import { isFailed, mapLiteSvmError, type TransactionErr } from './tx-errors.js';

export interface InnerRunResult {
  logs: string[];
  unitsConsumed: number;
  /** The failing instruction's index within `instructions`, and its error (as in InstructionError). */
  failure: { index: number; inner: unknown; err: TransactionErr } | null;
}

let fillerCounter = 0n;
const fillerSeed = randomBytes(32);

function fillerSignature(): Buffer {
  const sig = Buffer.alloc(64);
  fillerSeed.copy(sig, 0);
  sig.writeBigUInt64LE(++fillerCounter, 32);
  sig.writeBigUInt64LE(BigInt(Date.now()), 40);
  return sig;
}

const INVOKE = ' invoke [';

/** `line` with its trailing ` invoke [n]` (n decimal digits) at depth n + extra; unchanged when it has none. */
function nestLine(line: string, extraDepth: number): string {
  // What / invoke \[(\d+)\]$/ matched, without a regex per line (a settle's run logs ~10 lines).
  if (line.charCodeAt(line.length - 1) !== 93 /* ] */) return line;
  const at = line.lastIndexOf(INVOKE);
  if (at < 0) return line;
  const from = at + INVOKE.length;
  const to = line.length - 1;
  if (from === to) return line;
  for (let i = from; i < to; i++) {
    const c = line.charCodeAt(i);
    if (c < 48 || c > 57) return line;
  }
  return `${line.slice(0, from)}${Number(line.slice(from, to)) + extraDepth}]`;
}

/** Rewrites `invoke [n]` depths so inner logs nest under the calling program. */
export function nestLogs(logs: string[], extraDepth: number): string[] {
  if (extraDepth === 0) return logs;
  return logs.map((l) => nestLine(l, extraDepth));
}

/**
 * The payer's key, once per Keypair: its `publicKey` getter makes a new PublicKey at each call,
 * so the base58 text and the bytes kept per key object were made again at every run.
 */
const payerKeys = new WeakMap<Keypair, PublicKey>();

export function payerKeyOf(payer: Keypair): PublicKey {
  let key = payerKeys.get(payer);
  if (!key) payerKeys.set(payer, (key = payer.publicKey));
  return key;
}

export function runInner(svm: LiteSVM, payer: Keypair, instructions: TransactionInstruction[]): InnerRunResult {
  const payerKey = payerKeyOf(payer);
  const payerAddr = addressOf(payerKey); // base58 once per key object, not per run
  const payerBefore = readAccount(svm, payerAddr);
  // Compiled straight to bytes (legacy-message.ts): web3.js's compiler base58-encodes every key.
  const { message, numRequiredSignatures } = compileLegacyMessage(payerKey, instructions, svm.latestBlockhash());
  const sigs = Array.from({ length: numRequiredSignatures }, fillerSignature);
  const result = nativeSend(svm, Buffer.concat([Buffer.from(shortvec(numRequiredSignatures)), ...sigs, message]), 'legacy');
  writeAccount(svm, payerAddr, payerBefore);
  const meta = isFailed(result) ? result.meta() : result;
  const logs = meta.logs();
  const unitsConsumed = Number(meta.computeUnitsConsumed());
  if (!isFailed(result)) return { logs, unitsConsumed, failure: null };
  const err = mapLiteSvmError(result);
  if (typeof err === 'object' && 'InstructionError' in err) {
    const [index, inner] = err.InstructionError as [number, unknown];
    return { logs, unitsConsumed, failure: { index, inner, err } };
  }
  return { logs, unitsConsumed, failure: { index: 0, inner: 'GenericError', err } };
}
