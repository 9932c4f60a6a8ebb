/**
 * Verification of a standard x402 `exact` payment on Solana before the platform co-signs it.
 *
 * The x402 Foundation's facilitator scheme (`ExactSvmScheme` of @x402/svm) checks what the
 * standard defines: the fee payer is ours and first, every other signer signed, 3 to 7
 * instructions (compute-unit limit, compute-unit price, one `TransferChecked` of exactly
 * `amount` of `asset` to the associated token account of `payTo` whose authority is not ours,
 * then only memo or Lighthouse instructions, and exactly one memo equal to `extra.memo`), the caps
 * on compute units and price, at most two required signers, and a simulation against the
 * cluster. Lookup tables are refused: our signer does not resolve them, so no account can hide
 * in one.
 *
 * The sponsor policy adds what the facilitator leaves to its operator: the fee payer appears in
 * no instruction at all (not as a program, not as an account), and every payer signature must
 * pass the chain's strict Ed25519 rule (the same verifier the exchange uses), so that what is
 * accepted here is what the cluster accepts.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { verifyStrict } from '@pmx/programs';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { ExactSvmScheme } from '@x402/svm/exact/facilitator';
import type { FamilyADeps } from '../family-a.deps.js';
import { feePayerSigner } from './fee-payer.signer.js';

export type Verdict = { ok: true; payer: string } | { ok: false; reason: string };

export const POLICY_REASONS = {
  undecodable: 'invalid_exact_svm_payload_transaction_could_not_be_decoded',
  feePayerInInstruction: 'invalid_exact_svm_payload_fee_payer_in_instruction',
  signature: 'invalid_exact_svm_payload_signature_invalid',
} as const;

/** The facilitator scheme with this deployment's caps (one per deps; it holds no per-payment state we use). */
const schemes = new WeakMap<FamilyADeps, ExactSvmScheme>();

function schemeOf(deps: FamilyADeps): ExactSvmScheme {
  let scheme = schemes.get(deps);
  if (!scheme) {
    const { maxComputeUnits, maxPriceMicroLamports } = deps.settings.x402;
    scheme = new ExactSvmScheme(feePayerSigner(deps.chain, deps.keys.x402FeePayer()), undefined, {
      maxComputeUnits,
      maxPriorityFeeMicroLamports: maxPriceMicroLamports,
      maxRequiredSignatures: 2,
    });
    schemes.set(deps, scheme);
  }
  return scheme;
}

/** The sponsor policy on the wire transaction (see the header); undefined when it passes. */
export function sponsorPolicyRefusal(raw: Uint8Array): string | undefined {
  let tx: VersionedTransaction;
  try {
    tx = VersionedTransaction.deserialize(raw);
  } catch {
    return POLICY_REASONS.undecodable;
  }
  const message = tx.message;
  for (const ix of message.compiledInstructions) {
    if (ix.programIdIndex === 0 || ix.accountKeyIndexes.includes(0)) return POLICY_REASONS.feePayerInInstruction;
  }
  const bytes = message.serialize();
  const signers = message.staticAccountKeys.slice(0, message.header.numRequiredSignatures);
  for (let i = 1; i < signers.length; i++) {
    const signature = tx.signatures[i];
    if (!signature || !verifyStrict(bytes, signature, signers[i]!.toBytes())) return POLICY_REASONS.signature;
  }
  return undefined;
}

export async function verifyStandardPayment(
  deps: FamilyADeps,
  payload: PaymentPayload,
  raw: Uint8Array,
  requirements: PaymentRequirements,
): Promise<Verdict> {
  const refusal = sponsorPolicyRefusal(raw);
  if (refusal) return { ok: false, reason: refusal };
  const verdict = await schemeOf(deps).verify(payload, requirements);
  if (!verdict.isValid) return { ok: false, reason: verdict.invalidReason ?? 'invalid_exact_svm_verification_failed' };
  return { ok: true, payer: verdict.payer ?? '' };
}
