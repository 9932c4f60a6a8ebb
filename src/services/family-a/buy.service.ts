/**
 * Family A buy (x402). Step 1 stores a quote and answers 402 with the payment requirements.
 * Step 2 verifies the caller's USDC payment on chain, then records the payment (signature
 * unique) and the delivery intent in ONE database transaction before anything is sent, hands the
 * delivery to the outbound job, and waits a bounded time for its signature.
 *
 * Quote failures (decided here, documented in docs/family-a.md): an unknown quote answers 402
 * QUOTE_NOT_FOUND, an expired one 402 QUOTE_EXPIRED, both with a fresh quote and payment
 * requirements; the payment is NOT consumed, so it stays visible to an operator for a refund.
 *
 * A payment is honoured only at its own quote (issue 8 item 1): quotes are unauthenticated, so
 * anyone can ask one in a victim's name; the payer binding (the tokens must leave accounts owned
 * and signed for by the quote's wallet) stops paying someone else's quote, and the exact-amount
 * rule stops presenting a victim's 50 USDC payment with a 0.01 quote. A payment whose amount
 * differs from the presented quote is refused WITHOUT being consumed, so the victim's own quote
 * still claims it; delivery is computed from what the transfer moved.
 *
 * Every refusal after the header is read accounts for the presented transaction's money
 * (refusal-accounting.ts): refunded, held for its own quote, or credited, and the answer says so.
 */
import { randomUUID } from 'node:crypto';
import { findPaymentBySignature, insertQuote } from '../../../db/repositories/family-a-trades.repository.js';
import { DomainError } from '../../domain/errors.js';
import { assertBuyAmount, humanToRaw, rawToHuman, tokensForUsdc } from '../../domain/family-a/money.js';
import { decodePaymentHeader } from '../../domain/family-a/payment-payload.js';
import { checkQuoteAt, quoteTimes } from '../../domain/family-a/quote.js';
import { parseOutcomeSide, type OutcomeSide } from '../../domain/family-a/side.js';
import { PURPOSES, type DeliverParams } from './family-a.builders.js';
import type { FamilyADeps } from './family-a.deps.js';
import { deliveryStatus } from './delivery-status.js';
import { honourPayment } from './honour-payment.js';
import { requireTradable } from './market-catalog.service.js';
import { withRefusalAccounting } from './refusal-accounting.js';
import {
  assertNetwork,
  assertWallet,
  associatedAccount,
  fetchLandedTransfer,
  paymentFailed,
  requireTransfer,
  type LandedTransfer,
} from './x402-payment.verifier.js';
import type { PaymentPayload } from '../../domain/family-a/payment-payload.js';
import { alreadyProcessed } from './payment-status.service.js';
import { presentedQuote } from './presented-quote.js';
import { documentedPayload } from './x402-standard/documented-payload.js';
import { QuoteIssued } from './x402-standard/quote-issued.js';
import type { QuoteRow } from '../../../db/repositories/family-a-trades.repository.js';
import type { X402PaymentRow } from '../../../db/repositories/family-a-x402.repository.js';

export interface BuyBody {
  wallet: string;
  amount: number;
  side: string;
}
type Market = Awaited<ReturnType<typeof requireTradable>>;

const LABEL = 'Payment verification failed';

async function issueQuote(
  deps: FamilyADeps,
  m: Market,
  wallet: string,
  side: OutcomeSide,
  amountRaw: bigint,
  code = 'PAYMENT_REQUIRED',
  message?: string,
): Promise<never> {
  const times = quoteTimes(Date.now(), deps.settings.quoteTtlMs);
  const id = randomUUID();
  const accountFeeRaw = await accountOpeningFee(deps, side === 'YES' ? m.yes_mint : m.no_mint, wallet);
  await insertQuote(deps.db, {
    id,
    market_id: m.id,
    wallet,
    side,
    kind: 'buy',
    amount_raw: amountRaw,
    issued_at: times.issuedAt,
    expires_at: times.expiresAt,
    account_fee_raw: accountFeeRaw,
  });
  const payTo = side === 'YES' ? m.yes_wallet : m.no_wallet;
  throw new QuoteIssued(
    code,
    message ?? `Payment required: send ${rawToHuman(amountRaw)} USDC to ${payTo}, then repeat this request with X-PAYMENT`,
    {
      payment: {
        x402Version: 1,
        accepts: [{ network: deps.settings.network, asset: deps.usdcMint, amount: amountRaw.toString(), payTo }],
        payTo,
      },
      quote: { side, amount: rawToHuman(amountRaw), ...times },
      marketSlug: m.slug,
    },
    {
      quoteId: id,
      amountRaw: amountRaw + accountFeeRaw,
      asset: deps.usdcMint,
      payTo,
      accountFeeRaw,
      description: `Buy ${side} of ${m.slug} for ${rawToHuman(amountRaw)} USDC${accountFeeRaw > 0n ? ` (+${rawToHuman(accountFeeRaw)} USDC to open your ${side} token account)` : ''}`,
    },
  );
}

/** The standard flavour's account fee: due when the platform would open the buyer's outcome-token account (its rent). */
async function accountOpeningFee(deps: FamilyADeps, mint: string, wallet: string): Promise<bigint> {
  if (deps.settings.x402.accountFeeRaw === 0n) return 0n;
  return (await deps.chain.getAccount(associatedAccount(mint, wallet))) ? 0n : deps.settings.x402.accountFeeRaw;
}

function readBody(m: Market, body: BuyBody): { wallet: string; side: OutcomeSide; amountRaw: bigint } {
  const wallet = assertWallet(body.wallet);
  const side = parseOutcomeSide(body.side, { yes: m.yes_ticker, no: m.no_ticker });
  const amountRaw = humanToRaw(body.amount);
  assertBuyAmount(amountRaw);
  return { wallet, side, amountRaw };
}

export async function buyStep1(deps: FamilyADeps, slug: string, body: BuyBody): Promise<never> {
  const m = await requireTradable(deps, slug);
  const { wallet, side, amountRaw } = readBody(m, body);
  return issueQuote(deps, m, wallet, side, amountRaw);
}

export async function buyStep2(deps: FamilyADeps, slug: string, body: BuyBody, header: string) {
  const payload = decodePaymentHeader(header);
  assertWallet(payload.payer, 'X-PAYMENT payer'); // a malformed payer is a bad request (400), not a failed payment (402)
  assertNetwork(deps, payload.network);
  return withRefusalAccounting(deps, payload.txHash, (remember) => honourBuy(deps, slug, body, payload, remember));
}

async function honourBuy(
  deps: FamilyADeps,
  slug: string,
  body: BuyBody,
  payload: PaymentPayload,
  remember: (landed: LandedTransfer) => void,
  standard?: { quote: QuoteRow },
) {
  const m = await requireTradable(deps, slug);
  const { wallet, side, amountRaw } = readBody(m, body);
  // The standard flavour pays the account fee on top of the amount; the documented one never does.
  const feeRaw = standard ? BigInt(standard.quote.account_fee_raw) : 0n;
  const payTo = side === 'YES' ? m.yes_wallet : m.no_wallet;
  if (payload.payer !== wallet)
    throw paymentFailed(LABEL, `payer mismatch: payload payer ${payload.payer} is not the body wallet ${wallet}`);
  if (payload.asset !== deps.usdcMint) throw paymentFailed(LABEL, `wrong mint: asset ${payload.asset} is not USDC ${deps.usdcMint}`);
  if (payload.payTo !== payTo)
    throw paymentFailed(LABEL, `wrong recipient: payTo ${payload.payTo} is not the ${side} option wallet ${payTo}`);
  if (await findPaymentBySignature(deps.db, payload.txHash)) {
    throw alreadyProcessed(payload.txHash);
  }
  const quote = await presentedQuote(deps, { marketId: m.id, wallet, side, kind: 'buy' }, payload.quoteIssuedAt, standard);
  if (!quote)
    return issueQuote(
      deps,
      m,
      wallet,
      side,
      amountRaw,
      'QUOTE_NOT_FOUND',
      'No quote of this wallet, market and side was issued at quoteIssuedAt; a fresh quote follows',
    );
  if (BigInt(quote.amount_raw) !== amountRaw)
    throw new DomainError(
      'invalid',
      'VALIDATION_ERROR',
      `amount ${body.amount} differs from the quote's ${rawToHuman(BigInt(quote.amount_raw))}`,
    );

  const landed = await fetchLandedTransfer(deps, payload.txHash, LABEL);
  remember(landed);
  const timing = checkQuoteAt(Date.parse(quote.issued_at), landed.blockTimeMs ?? Date.now(), deps.settings.quoteTtlMs);
  if (timing === 'expired')
    return issueQuote(
      deps,
      m,
      wallet,
      side,
      amountRaw,
      'QUOTE_EXPIRED',
      'The quote expired before the payment landed (quotes live 120000 ms); a fresh quote follows',
    );
  if (timing === 'before_quote') throw paymentFailed(LABEL, 'the payment predates the quote');
  // Exact: the payment must have moved the quote's amount (see the header); refused otherwise, unconsumed.
  const moved = requireTransfer(
    landed,
    { mint: deps.usdcMint, recipientOwner: payTo, payer: wallet, minAmount: amountRaw + feeRaw, exact: true },
    LABEL,
  );

  // Tokens for what the payment moved (the quote's amount, and its account fee), floored against the caller.
  const tokens = tokensForUsdc(moved - feeRaw, BigInt(m.target_price_raw!));
  const mint = side === 'YES' ? m.yes_mint : m.no_mint;
  const params: DeliverParams = { mint, owner: wallet, amountRaw: tokens.toString() };
  const delivery = await honourPayment(
    deps,
    { signature: payload.txHash, kind: 'buy', market_id: m.id, wallet, side, paid_raw: moved, deliver_raw: tokens, quote_id: quote.id },
    { idempotencyKey: `a-buy-${payload.txHash}`, purpose: PURPOSES.deliverTokens, params },
    { landed, honoured: [{ account: associatedAccount(deps.usdcMint, payTo), amount: moved }] },
  );
  return {
    slug: m.slug,
    action: 'buy' as const,
    side,
    amount: rawToHuman(amountRaw),
    tokenAmount: rawToHuman(tokens),
    paymentTxHash: payload.txHash,
    tokenTransferTxHash: delivery.signature,
    deliveryStatus: deliveryStatus(delivery),
    wallet,
  };
}

/** Honours a standard payment that landed (settle-standard-payment.ts), as step 2 would with its signature. */
export async function honourStandardBuy(deps: FamilyADeps, row: X402PaymentRow, quote: QuoteRow) {
  const body: BuyBody = { wallet: row.payer, amount: rawToHuman(BigInt(row.amount_raw)), side: row.side };
  const payload = documentedPayload(deps, row, deps.usdcMint);
  return withRefusalAccounting(deps, row.signature, (remember) => honourBuy(deps, row.slug, body, payload, remember, { quote }));
}
