/**
 * Family A claims. Eligibility reads the wallet's winning-token balance on chain; confirmation
 * verifies that ONE transaction moved all of the wallet's winning tokens (in the accounts it
 * touched) to the platform wallet, then records the claim (unique per market and wallet, and
 * its signature unique) with the payout intent in one database transaction before paying.
 * Payout = tokens × marketLimit / 100,000,000, floored; paid from the winning option wallet
 * first, then the losing one, then the platform wallet's reserve.
 *
 * Issue 8: a partial transfer is refused but not kept without record: its tokens are credited,
 * and the claim that finally empties the wallet pays for them too. Eligibility warns when the
 * wallets cannot cover the payout now; a payout they cannot cover is still recorded and waits
 * for funds (deliveryStatus `awaiting_funds`), paid automatically once an operator funds them.
 */
import { randomUUID } from 'node:crypto';
import { listCredits, transitionInbound } from '../../../db/repositories/family-a-inbound.repository.js';
import { findClaim, findPaymentBySignature, insertClaim, type ClaimRow } from '../../../db/repositories/family-a-trades.repository.js';
import { DomainError } from '../../domain/errors.js';
import { claimPayout, rawToHuman } from '../../domain/family-a/money.js';
import { decodeTransactionSignature } from '../../domain/signed-message.js';
import { outcomeLabel, type OutcomeSide } from '../../domain/family-a/side.js';
import type { OutboundResult } from '../outbound/outbound.types.js';
import { PURPOSES, type PayUsdcParams } from './family-a.builders.js';
import type { FamilyADeps } from './family-a.deps.js';
import { deliveryStatus } from './delivery-status.js';
import { honourPayment } from './honour-payment.js';
import { requireMarket } from './market-catalog.service.js';
import { withRefusalAccounting } from './refusal-accounting.js';
import {
  assertWallet,
  associatedAccount,
  fetchLandedTransfer,
  paymentFailed,
  requireTransfer,
  type LandedTransfer,
} from './x402-payment.verifier.js';
import { AlreadyProcessed, alreadyProcessed } from './payment-status.service.js';

const LABEL = 'Token transfer verification failed';

function alreadyClaimed(claim: ClaimRow): DomainError {
  return new DomainError('conflict', 'ALREADY_CLAIMED', 'This wallet already claimed its winnings for this market', {
    claim: { claimedAt: claim.claimed_at, txHash: claim.transfer_signature },
  });
}

async function resolvedMarket(deps: FamilyADeps, slug: string) {
  const m = await requireMarket(deps, slug);
  if (m.kind !== 'x402' || m.market_limit === null)
    throw new DomainError('invalid', 'VALIDATION_ERROR', `Market ${slug} is not an x402 market; redeem it through Family B`);
  if (m.status !== 'resolved' || (m.outcome !== 'YES' && m.outcome !== 'NO')) {
    throw new DomainError('invalid', 'MARKET_NOT_RESOLVED', `Market ${slug} is not resolved yet`, { marketSlug: slug });
  }
  const winner: OutcomeSide = m.outcome;
  return { m, winner, mint: (winner === 'YES' ? m.yes_mint : m.no_mint)!, limit: BigInt(m.market_limit) };
}

/** USDC the payout can draw on right now: both option wallets of the market and the platform reserve. */
async function payoutReserve(deps: FamilyADeps, marketId: string): Promise<bigint> {
  const wallets = [deps.keys.optionWallet(marketId, 'YES'), deps.keys.optionWallet(marketId, 'NO'), deps.keys.platform()];
  const balances = await Promise.all(
    wallets.map(async (w) =>
      (await deps.chain.getTokenAccountsByOwner(w.publicKey.toBase58(), { mint: deps.usdcMint })).reduce((s, a) => s + a.amount, 0n),
    ),
  );
  return balances.reduce((s, b) => s + b, 0n);
}

export async function claimEligibility(deps: FamilyADeps, slug: string, walletInput: string) {
  const wallet = assertWallet(walletInput);
  const { m, winner, mint, limit } = await resolvedMarket(deps, slug);
  const claim = await findClaim(deps.db, m.id, wallet);
  if (claim) throw alreadyClaimed(claim);
  const accounts = await deps.chain.getTokenAccountsByOwner(wallet, { mint });
  const balance = accounts.reduce((sum, a) => sum + a.amount, 0n);
  if (balance === 0n)
    throw new DomainError('invalid', 'NO_CLAIMABLE_BALANCE', `Wallet ${wallet} holds no winning ${outcomeLabel(winner)} tokens of ${slug}`);
  const sendTo = deps.keys.platform().publicKey.toBase58();
  const payout = claimPayout(balance, limit);
  const available = await payoutReserve(deps, m.id);
  return {
    slug: m.slug,
    wallet,
    outcome: outcomeLabel(winner),
    payoutUsdc: rawToHuman(payout),
    tokenMint: mint,
    userTokenBalance: rawToHuman(balance),
    marketLimit: Number(limit),
    payoutFunding: { covered: available >= payout, availableUsdc: rawToHuman(available) },
    ...(available >= payout
      ? {}
      : {
          warning: `The platform wallets hold ${rawToHuman(available)} USDC for payouts now, less than this ${rawToHuman(payout)} USDC payout: a confirmed claim is recorded and paid automatically once an operator funds them`,
        }),
    nextStep: {
      action: 'transferTokens',
      tokenMint: mint,
      tokensToTransfer: rawToHuman(balance),
      sendTo,
      confirmEndpoint: `/${m.slug}/claim/confirm`,
      hint: 'Transfer ALL tokens to platform wallet and submit transferTxHash to /claim/confirm',
    },
  };
}

export async function confirmClaim(deps: FamilyADeps, slug: string, walletInput: string, transferTxHash: string) {
  const wallet = assertWallet(walletInput);
  // Checked before anything reads the chain: a malformed hash is the caller's 400, not the node's error.
  if (!decodeTransactionSignature(transferTxHash))
    throw new DomainError('invalid', 'VALIDATION_ERROR', 'transferTxHash is not a transaction signature (base58 of 64 bytes)');
  return withRefusalAccounting(deps, transferTxHash, (remember) => claim(deps, slug, wallet, transferTxHash, remember));
}

async function claim(deps: FamilyADeps, slug: string, wallet: string, transferTxHash: string, remember: (landed: LandedTransfer) => void) {
  const { m, winner, mint, limit } = await resolvedMarket(deps, slug);
  const existing = await findClaim(deps.db, m.id, wallet);
  if (existing) throw alreadyClaimed(existing);
  if (await findPaymentBySignature(deps.db, transferTxHash)) throw alreadyProcessed(transferTxHash);
  const platform = deps.keys.platform().publicKey.toBase58();
  const landed = await fetchLandedTransfer(deps, transferTxHash, LABEL);
  remember(landed);
  // A partial transfer is refused here and its tokens credited to this claim (refusal-accounting.ts).
  const tokens = requireTransfer(landed, { mint, recipientOwner: platform, payer: wallet, minAmount: 1n, requireAll: true }, LABEL);
  // The transaction emptied the accounts it touched; winning tokens held elsewhere also count.
  const remaining = (await deps.chain.getTokenAccountsByOwner(wallet, { mint })).reduce((sum, a) => sum + a.amount, 0n);
  if (remaining > 0n)
    throw paymentFailed(LABEL, `partial transfer: ${remaining} raw units of the winning token remain in the wallet; transfer ALL of them`);
  // Earlier partial transfers of this wallet were credited: the claim pays for them too.
  const credits = (await listCredits(deps.db, m.id, wallet, mint)).filter((c) => c.signature !== transferTxHash);
  const total = credits.reduce((sum, c) => sum + BigInt(c.amount_raw), tokens);
  const payout = claimPayout(total, limit);
  const loser: OutcomeSide = winner === 'YES' ? 'NO' : 'YES';
  const claimedAt = new Date().toISOString();
  const params: PayUsdcParams = { marketId: m.id, sources: [winner, loser, 'PLATFORM'], to: wallet, amountRaw: payout.toString() };
  let result: OutboundResult;
  try {
    result = await honourPayment(
      deps,
      {
        signature: transferTxHash,
        kind: 'claim',
        market_id: m.id,
        wallet,
        side: winner,
        paid_raw: total,
        deliver_raw: payout,
        quote_id: null,
      },
      { idempotencyKey: `a-claim-${m.id}-${wallet}`, purpose: PURPOSES.payUsdc, params },
      {
        landed,
        honoured: [{ account: associatedAccount(mint, platform), amount: tokens }],
        from: ['held', 'credited'],
        record: async (trx, outboundId) => {
          for (const c of credits) {
            const taken = await transitionInbound(trx, { signature: c.signature, index: Number(c.transfer_index) }, ['credited'], {
              state: 'claimed',
              honoured_raw: BigInt(c.amount_raw),
              updated_at: claimedAt,
            });
            if (!taken)
              throw new DomainError(
                'conflict',
                'ALREADY_CLAIMED',
                'A concurrent claim of this wallet counted its credited transfers first',
              );
          }
          await insertClaim(trx, {
            id: randomUUID(),
            market_id: m.id,
            wallet,
            transfer_signature: transferTxHash,
            token_amount_raw: total,
            payout_raw: payout,
            outbound_id: outboundId,
            claimed_at: claimedAt,
          });
        },
      },
    );
  } catch (error) {
    if (!(error instanceof AlreadyProcessed)) throw error;
    const claim = await findClaim(deps.db, m.id, wallet);
    if (claim && claim.transfer_signature !== transferTxHash) throw alreadyClaimed(claim);
    throw error;
  }
  return {
    slug: m.slug,
    wallet,
    outcome: outcomeLabel(winner),
    payoutUsdc: rawToHuman(payout),
    tokenAmount: rawToHuman(total),
    tokenTransferTxHash: transferTxHash,
    usdcPayoutTxHash: result.signature,
    deliveryStatus: deliveryStatus(result),
    ...(result.awaitingFunds
      ? {
          payoutWarning: `The platform wallets cannot cover this payout yet (${result.reason ?? 'insufficient funds'}); it is recorded and paid automatically once they are funded. GET /v2/payments/${transferTxHash} follows it.`,
        }
      : {}),
  };
}
