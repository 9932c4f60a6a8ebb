/**
 * Family A claims. Eligibility reads the wallet's winning-token balance on chain; confirmation
 * verifies that ONE transaction moved all of the wallet's winning tokens (in the accounts it
 * touched) to the platform wallet, then records the claim (unique per market and wallet, and
 * its signature unique) with the payout intent in one database transaction before paying.
 * Payout = tokens × marketLimit / 100,000,000, floored; paid from the winning option wallet
 * first, then the losing one.
 */
import { randomUUID } from 'node:crypto';
import { findClaim, findPaymentBySignature, insertClaim, insertPayment, type ClaimRow } from '../../../db/repositories/family-a-trades.repository.js';
import { DomainError } from '../../domain/errors.js';
import { claimPayout, rawToHuman } from '../../domain/family-a/money.js';
import { outcomeLabel, type Side } from '../../domain/family-a/side.js';
import { recordOutboundIntent } from '../outbound/outbound-intents.js';
import { PURPOSES, type PayUsdcParams } from './family-a.builders.js';
import type { FamilyADeps } from './family-a.deps.js';
import { dispatchAndAwait } from './honour-payment.js';
import { requireMarket } from './market-catalog.service.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { assertWallet, fetchLandedTransfer, paymentFailed, requireTransfer } from './x402-payment.verifier.js';
import { alreadyProcessed } from './payment-status.service.js';

const LABEL = 'Token transfer verification failed';

function alreadyClaimed(claim: ClaimRow): DomainError {
  return new DomainError('conflict', 'ALREADY_CLAIMED', 'This wallet already claimed its winnings for this market', {
    claim: { claimedAt: claim.claimed_at, txHash: claim.transfer_signature },
  });
}

async function resolvedMarket(deps: FamilyADeps, slug: string) {
  const m = await requireMarket(deps, slug);
  if (m.kind !== 'x402' || m.market_limit === null) throw new DomainError('invalid', 'VALIDATION_ERROR', `Market ${slug} is not an x402 market; redeem it through Family B`);
  if (m.status !== 'resolved' || (m.outcome !== 'YES' && m.outcome !== 'NO')) {
    throw new DomainError('invalid', 'MARKET_NOT_RESOLVED', `Market ${slug} is not resolved yet`, { marketSlug: slug });
  }
  const winner: Side = m.outcome;
  return { m, winner, mint: (winner === 'YES' ? m.yes_mint : m.no_mint)!, limit: BigInt(m.market_limit) };
}

export async function claimEligibility(deps: FamilyADeps, slug: string, walletInput: string) {
  const wallet = assertWallet(walletInput);
  const { m, winner, mint, limit } = await resolvedMarket(deps, slug);
  const claim = await findClaim(deps.db, m.id, wallet);
  if (claim) throw alreadyClaimed(claim);
  const accounts = await deps.chain.getTokenAccountsByOwner(wallet, { mint });
  const balance = accounts.reduce((sum, a) => sum + a.amount, 0n);
  if (balance === 0n) throw new DomainError('invalid', 'NO_CLAIMABLE_BALANCE', `Wallet ${wallet} holds no winning ${outcomeLabel(winner)} tokens of ${slug}`);
  const sendTo = deps.keys.platform().publicKey.toBase58();
  return {
    slug: m.slug, wallet, outcome: outcomeLabel(winner), payoutUsdc: rawToHuman(claimPayout(balance, limit)), tokenMint: mint,
    userTokenBalance: rawToHuman(balance), marketLimit: Number(limit),
    nextStep: {
      action: 'transferTokens', tokenMint: mint, tokensToTransfer: rawToHuman(balance), sendTo,
      confirmEndpoint: `/${m.slug}/claim/confirm`,
      hint: 'Transfer ALL tokens to platform wallet and submit transferTxHash to /claim/confirm',
    },
  };
}

export async function confirmClaim(deps: FamilyADeps, slug: string, walletInput: string, transferTxHash: string) {
  const wallet = assertWallet(walletInput);
  const { m, winner, mint, limit } = await resolvedMarket(deps, slug);
  const existing = await findClaim(deps.db, m.id, wallet);
  if (existing) throw alreadyClaimed(existing);
  if (await findPaymentBySignature(deps.db, transferTxHash)) throw alreadyProcessed(transferTxHash);
  const platform = deps.keys.platform().publicKey.toBase58();
  const landed = await fetchLandedTransfer(deps, transferTxHash, LABEL);
  const tokens = requireTransfer(landed, { mint, recipientOwner: platform, payer: wallet, minAmount: 1n, requireAll: true }, LABEL);
  // The transaction emptied the accounts it touched; winning tokens held elsewhere also count.
  const remaining = (await deps.chain.getTokenAccountsByOwner(wallet, { mint })).reduce((sum, a) => sum + a.amount, 0n);
  if (remaining > 0n) throw paymentFailed(LABEL, `partial transfer: ${remaining} raw units of the winning token remain in the wallet; transfer ALL of them`);
  const payout = claimPayout(tokens, limit);
  const loser: Side = winner === 'YES' ? 'NO' : 'YES';
  const claimedAt = new Date().toISOString();
  let outboundId: string;
  try {
    outboundId = await deps.db.transaction().execute(async (trx) => {
      const params: PayUsdcParams = { marketId: m.id, sources: [winner, loser, 'PLATFORM'], to: wallet, amountRaw: payout.toString() };
      const id = await recordOutboundIntent(trx, { idempotencyKey: `a-claim-${m.id}-${wallet}`, purpose: PURPOSES.payUsdc, params });
      await insertPayment(trx, {
        id: randomUUID(), signature: transferTxHash, kind: 'claim', market_id: m.id, wallet, side: winner, paid_raw: tokens,
        deliver_raw: payout, quote_id: null, outbound_id: id, created_at: claimedAt,
      });
      await insertClaim(trx, { id: randomUUID(), market_id: m.id, wallet, transfer_signature: transferTxHash, token_amount_raw: tokens, payout_raw: payout, outbound_id: id, claimed_at: claimedAt });
      return id;
    });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    const claim = await findClaim(deps.db, m.id, wallet);
    if (claim && claim.transfer_signature !== transferTxHash) throw alreadyClaimed(claim);
    throw alreadyProcessed(transferTxHash);
  }
  const result = await dispatchAndAwait(deps, outboundId, deps.settings.deliveryWaitMs);
  return {
    slug: m.slug, wallet, outcome: outcomeLabel(winner), payoutUsdc: rawToHuman(payout), tokenAmount: rawToHuman(tokens),
    tokenTransferTxHash: transferTxHash, usdcPayoutTxHash: result.signature, deliveryStatus: result.status,
  };
}
