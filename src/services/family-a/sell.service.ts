/**
 * Family A sell (public reference): step 1 answers 402 asking for a token transfer to `sendTo`
 * (the option wallet of the side); step 2 verifies that transfer on chain and pays
 * tokenAmount × targetPrice USDC (floored) from the market's option wallets, recorded before
 * sending exactly like a buy delivery. A refused sell accounts for the presented transaction's
 * tokens like a refused buy (refusal-accounting.ts): refunded, or held for the seller's own quote.
 */
import { randomUUID } from 'node:crypto';
import { findPaymentBySignature, insertQuote } from '../../../db/repositories/family-a-trades.repository.js';
import { DomainError } from '../../domain/errors.js';
import { humanToRaw, rawToHuman, usdcForTokens } from '../../domain/family-a/money.js';
import { decodePaymentHeader } from '../../domain/family-a/payment-payload.js';
import { checkQuoteAt, quoteTimes } from '../../domain/family-a/quote.js';
import { parseOutcomeSide, type OutcomeSide } from '../../domain/family-a/side.js';
import { PURPOSES, type PayUsdcParams } from './family-a.builders.js';
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
import { QuoteIssued } from './x402-standard/quote-issued.js';
import type { StandardOffer } from './x402-standard/payment-required.js';
import type { QuoteRow } from '../../../db/repositories/family-a-trades.repository.js';
import type { X402PaymentRow } from '../../../db/repositories/family-a-x402.repository.js';
import { alreadyProcessed } from './payment-status.service.js';
import { presentedQuote } from './presented-quote.js';
import { documentedPayload } from './x402-standard/documented-payload.js';

export interface SellBody {
  wallet: string;
  tokenAmount: number;
  side: string;
}
type Market = Awaited<ReturnType<typeof requireTradable>>;
const LABEL = 'Token transfer verification failed';

function readBody(m: Market, body: SellBody) {
  const wallet = assertWallet(body.wallet);
  const side = parseOutcomeSide(body.side, { yes: m.yes_ticker, no: m.no_ticker });
  const tokensRaw = humanToRaw(body.tokenAmount, 'tokenAmount');
  const payoutRaw = usdcForTokens(tokensRaw, BigInt(m.target_price_raw!));
  if (payoutRaw <= 0n) throw new DomainError('invalid', 'VALIDATION_ERROR', 'tokenAmount is too small to pay anything');
  return { wallet, side, tokensRaw, payoutRaw };
}

async function issueQuote(
  deps: FamilyADeps,
  m: Market,
  wallet: string,
  side: OutcomeSide,
  tokensRaw: bigint,
  code = 'PAYMENT_REQUIRED',
  message = 'Token transfer required to execute sell',
): Promise<never> {
  const times = quoteTimes(Date.now(), deps.settings.quoteTtlMs);
  const id = randomUUID();
  await insertQuote(deps.db, {
    id,
    market_id: m.id,
    wallet,
    side,
    kind: 'sell',
    amount_raw: tokensRaw,
    issued_at: times.issuedAt,
    expires_at: times.expiresAt,
  });
  const tokenMint = side === 'YES' ? m.yes_mint : m.no_mint;
  const sendTo = side === 'YES' ? m.yes_wallet : m.no_wallet;
  const price = BigInt(m.target_price_raw!);
  const offer: StandardOffer = {
    quoteId: id,
    amountRaw: tokensRaw,
    asset: tokenMint,
    payTo: sendTo,
    accountFeeRaw: 0n,
    description: `Sell ${rawToHuman(tokensRaw)} ${side} tokens of ${m.slug} for ${rawToHuman(usdcForTokens(tokensRaw, price))} USDC`,
  };
  throw new QuoteIssued(
    code,
    message,
    {
      payment: {
        x402Version: 1,
        network: deps.settings.network,
        tokenMint,
        sendTo,
        tokenAmount: rawToHuman(tokensRaw),
        tokenAmountAtomic: tokensRaw.toString(),
      },
      quote: {
        side,
        tokenAmount: rawToHuman(tokensRaw),
        usdcPayout: rawToHuman(usdcForTokens(tokensRaw, price)),
        targetPrice: rawToHuman(price),
        ...times,
      },
      marketSlug: m.slug,
    },
    offer,
  );
}

export async function sellStep1(deps: FamilyADeps, slug: string, body: SellBody): Promise<never> {
  const m = await requireTradable(deps, slug);
  const { wallet, side, tokensRaw } = readBody(m, body);
  return issueQuote(deps, m, wallet, side, tokensRaw);
}

export async function sellStep2(deps: FamilyADeps, slug: string, body: SellBody, header: string) {
  const payload = decodePaymentHeader(header);
  assertWallet(payload.payer, 'X-PAYMENT payer'); // a malformed payer is a bad request (400), not a failed payment (402)
  assertNetwork(deps, payload.network);
  return withRefusalAccounting(deps, payload.txHash, (remember) => honourSell(deps, slug, body, payload, remember));
}

async function honourSell(
  deps: FamilyADeps,
  slug: string,
  body: SellBody,
  payload: PaymentPayload,
  remember: (landed: LandedTransfer) => void,
  standard?: { quote: QuoteRow },
) {
  const m = await requireTradable(deps, slug);
  const { wallet, side, tokensRaw } = readBody(m, body);
  const mint = side === 'YES' ? m.yes_mint : m.no_mint;
  const sendTo = side === 'YES' ? m.yes_wallet : m.no_wallet;
  if (payload.payer !== wallet)
    throw paymentFailed(LABEL, `payer mismatch: payload payer ${payload.payer} is not the body wallet ${wallet}`);
  if (await findPaymentBySignature(deps.db, payload.txHash)) throw alreadyProcessed(payload.txHash);
  const quote = await presentedQuote(deps, { marketId: m.id, wallet, side, kind: 'sell' }, payload.quoteIssuedAt, standard);
  if (!quote)
    return issueQuote(
      deps,
      m,
      wallet,
      side,
      tokensRaw,
      'QUOTE_NOT_FOUND',
      'No sell quote of this wallet, market and side was issued at quoteIssuedAt; a fresh quote follows',
    );
  if (BigInt(quote.amount_raw) !== tokensRaw) throw new DomainError('invalid', 'VALIDATION_ERROR', "tokenAmount differs from the quote's");

  const landed = await fetchLandedTransfer(deps, payload.txHash, LABEL);
  remember(landed);
  const timing = checkQuoteAt(Date.parse(quote.issued_at), landed.blockTimeMs ?? Date.now(), deps.settings.quoteTtlMs);
  if (timing === 'expired')
    return issueQuote(
      deps,
      m,
      wallet,
      side,
      tokensRaw,
      'QUOTE_EXPIRED',
      'The sell quote expired before the transfer landed; a fresh quote follows',
    );
  if (timing === 'before_quote') throw paymentFailed(LABEL, 'the transfer predates the quote');
  // Exact, as for buys: a larger transfer presented with a smaller quote is refused, unconsumed.
  const moved = requireTransfer(landed, { mint, recipientOwner: sendTo, payer: wallet, minAmount: tokensRaw, exact: true }, LABEL);
  const paidOut = usdcForTokens(moved, BigInt(m.target_price_raw!));

  const other: OutcomeSide = side === 'YES' ? 'NO' : 'YES';
  const params: PayUsdcParams = { marketId: m.id, sources: [side, other, 'PLATFORM'], to: wallet, amountRaw: paidOut.toString() };
  const payout = await honourPayment(
    deps,
    { signature: payload.txHash, kind: 'sell', market_id: m.id, wallet, side, paid_raw: moved, deliver_raw: paidOut, quote_id: quote.id },
    { idempotencyKey: `a-sell-${payload.txHash}`, purpose: PURPOSES.payUsdc, params },
    { landed, honoured: [{ account: associatedAccount(mint, sendTo), amount: moved }] },
  );
  return {
    slug: m.slug,
    action: 'sell' as const,
    side,
    tokenAmount: rawToHuman(tokensRaw),
    usdcPayout: rawToHuman(paidOut),
    tokenTransferTxHash: payload.txHash,
    usdcPayoutTxHash: payout.signature,
    deliveryStatus: deliveryStatus(payout),
    wallet,
  };
}

/** Honours a standard payment of outcome tokens that landed (settle-standard-payment.ts), as step 2 would. */
export async function honourStandardSell(deps: FamilyADeps, row: X402PaymentRow, quote: QuoteRow) {
  const body: SellBody = { wallet: row.payer, tokenAmount: rawToHuman(BigInt(row.amount_raw)), side: row.side };
  const payload = documentedPayload(deps, row, ''); // a sell's step 2 takes the mint from the side, not the payload
  return withRefusalAccounting(deps, row.signature, (remember) => honourSell(deps, row.slug, body, payload, remember, { quote }));
}
