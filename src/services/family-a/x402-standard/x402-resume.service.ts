/**
 * Standard payments recorded but not decided (the request gave up waiting, or the process died
 * between recording and deciding) are finished here: resent while their blockhash is valid,
 * honoured once landed, failed or expired otherwise (settle-standard-payment.ts). Run by the
 * `family-a.x402.resume` job; harmless beside a request or a replay doing the same (every
 * decision is a compare-and-set). Also reports the fee payer's balance.
 */
import { listUndecidedX402Payments } from '../../../../db/repositories/family-a-x402.repository.js';
import type { DevFaucet } from '../../../chain/dev-faucet.js';
import type { FamilyADeps } from '../family-a.deps.js';
import { settleRecorded } from './settle-standard-payment.js';

/** A payment younger than this may still be in its own request's hands. */
const SETTLE_AGE_MS = 20_000;
const BATCH = 50;
/** 10 SOL: some two million standard payments' fees on the embedded cluster. */
const DEV_FEE_PAYER_LAMPORTS = 10_000_000_000n;

export async function resumeStandardPayments(deps: FamilyADeps, now = Date.now()): Promise<{ decided: number; pending: number }> {
  const rows = await listUndecidedX402Payments(deps.db, new Date(now - SETTLE_AGE_MS).toISOString(), BATCH);
  let decided = 0;
  for (const row of rows) {
    try {
      if (await settleRecorded(deps, row)) decided += 1;
    } catch (error) {
      deps.log.warn({ signature: row.signature, err: (error as Error).message }, 'standard payment not settled yet; next pass retries');
    }
  }
  if (rows.length > 0) deps.log.info({ decided, pending: rows.length - decided }, 'family-a standard payments resumed');
  return { decided, pending: rows.length - decided };
}

/** The fee payer's lamports, warned about when below FAMILY_A_X402_FEE_PAYER_MIN_SOL (it pays every standard payment's fee). */
export async function checkFeePayer(deps: FamilyADeps): Promise<bigint> {
  const address = deps.keys.x402FeePayer().publicKey.toBase58();
  const lamports = (await deps.chain.getAccount(address))?.lamports ?? 0n;
  if (lamports < deps.settings.x402.feePayerMinLamports)
    deps.log.warn(
      { feePayer: address, lamports: lamports.toString(), minimum: deps.settings.x402.feePayerMinLamports.toString() },
      'x402 fee payer is low on SOL: standard payments will fail once it cannot pay their fees; fund it',
    );
  return lamports;
}

/** On the embedded cluster the fee payer is topped up from the dev faucet at start; on a real cluster an operator funds it. */
export async function fundDevFeePayer(deps: FamilyADeps, faucet: DevFaucet | undefined): Promise<void> {
  const address = deps.keys.x402FeePayer().publicKey.toBase58();
  if (!faucet) {
    deps.log.info({ feePayer: address }, "x402 fee payer (fund it with SOL: it pays every standard payment's fee)");
    return;
  }
  const lamports = (await deps.chain.getAccount(address))?.lamports ?? 0n;
  if (lamports < DEV_FEE_PAYER_LAMPORTS) await faucet.fund({ wallet: address, lamports: DEV_FEE_PAYER_LAMPORTS });
}
