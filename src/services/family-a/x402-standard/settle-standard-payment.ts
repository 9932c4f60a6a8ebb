/**
 * A Family A buy or sell paid the standard way (x402 v2, `exact` on Solana): the request carries
 * PAYMENT-SIGNATURE, a transaction the payer partially signed with the platform's fee payer as
 * its fee payer. In order:
 *
 * 1. decode (400 when malformed); co-sign: Ed25519 is deterministic, so the same bytes always get
 *    the same id, and a replayed header finds its recorded payment and gets its stored answer;
 * 2. find the quote the memo names: of this market, wallet, side and kind, for this amount, not
 *    expired (a refusal here is a 402: nothing is signed or sent);
 * 3. verify (verify-standard-payment.ts) and bound the payer's attempts;
 * 4. record the co-signed bytes (the signature is the key) BEFORE sending, then land them
 *    (land-payment.ts) and decide: honoured through the documented step 2 (the same money rules:
 *    exact amount, refusal accounting, GET /v2/payments/{tx}), failed, expired or rejected. A
 *    payment still undecided when the request gives up stays `sent`; the resume job
 *    (x402-resume.service.ts) finishes it, and a replay answers once it has.
 */
import { VersionedTransaction } from '@solana/web3.js';
import { findQuoteById, type QuoteRow } from '../../../../db/repositories/family-a-trades.repository.js';
import {
  decideX402Payment,
  findX402Payment,
  insertX402Payment,
  type X402PaymentRow,
} from '../../../../db/repositories/family-a-x402.repository.js';
import { isUniqueViolation } from '../../../../db/errors.js';
import { DomainError } from '../../../domain/errors.js';
import { humanToRaw } from '../../../domain/family-a/money.js';
import { parseOutcomeSide } from '../../../domain/family-a/side.js';
import type { FamilyADeps } from '../family-a.deps.js';
import { requireTradable } from '../market-catalog.service.js';
import { coSign } from './fee-payer.signer.js';
import { honourLanded } from './honour-landed.js';
import { landPayment, type LandingFate } from './land-payment.js';
import { PayerRateLimit } from './payer-rate-limit.js';
import { quoteIdOfMemo, requirementsFor, type StandardOffer } from './payment-required.js';
import { refusedAnswer, refusedBeforeSending, replay, type PaidAnswer, type StoredAnswer } from './standard-answers.js';
import { decodeStandardPayment } from './standard-payload.js';
import { verifyStandardPayment } from './verify-standard-payment.js';

export interface StandardTrade {
  kind: 'buy' | 'sell';
  slug: string;
  wallet: string;
  side: string;
  /** buy: `amount` (USDC); sell: `tokenAmount`. */
  amount: number;
  header: string;
}

const limits = new WeakMap<FamilyADeps, PayerRateLimit>();
function rateLimitOf(deps: FamilyADeps): PayerRateLimit {
  let limit = limits.get(deps);
  if (!limit) limits.set(deps, (limit = new PayerRateLimit(deps.settings.x402.payerPerMinute)));
  return limit;
}

function tryCoSign(deps: FamilyADeps, raw: Uint8Array): ReturnType<typeof coSign> | undefined {
  try {
    return coSign(deps.keys.x402FeePayer(), raw);
  } catch {
    return undefined; // the fee payer is not one of its signers: verification refuses it below
  }
}

/** The quote the payment's memo names, if it is this request's and still payable. */
async function quoteOfRequest(deps: FamilyADeps, trade: StandardTrade, memo: unknown) {
  const m = await requireTradable(deps, trade.slug);
  const refuse = (reason: string, message: string) => refusedBeforeSending(deps, trade.wallet, reason, message);
  const id = quoteIdOfMemo(memo);
  const quote = id ? await findQuoteById(deps.db, id) : undefined;
  if (!quote) throw refuse('invalid_exact_svm_payload_memo_mismatch', 'the payment names no quote of this service');
  const side = parseOutcomeSide(trade.side, { yes: m.yes_ticker, no: m.no_ticker });
  if (quote.market_id !== m.id || quote.wallet !== trade.wallet || quote.side !== side || quote.kind !== trade.kind)
    throw refuse('invalid_exact_svm_payload_memo_mismatch', "the payment's quote is for another market, wallet, side or trade");
  if (BigInt(quote.amount_raw) !== humanToRaw(trade.amount))
    throw refuse('invalid_exact_svm_payload_amount_mismatch', "the amount differs from the quote's");
  if (Date.parse(quote.expires_at) <= Date.now()) throw refuse('quote_expired', 'the quote expired; a fresh one follows');
  const sideYes = side === 'YES';
  const offer: StandardOffer = {
    quoteId: quote.id,
    amountRaw: BigInt(quote.amount_raw) + BigInt(quote.account_fee_raw),
    asset: trade.kind === 'buy' ? deps.usdcMint : sideYes ? m.yes_mint : m.no_mint,
    payTo: sideYes ? m.yes_wallet : m.no_wallet,
    accountFeeRaw: BigInt(quote.account_fee_raw),
    description: '',
  };
  return { quote, offer, slug: m.slug };
}

export async function payStandard(deps: FamilyADeps, trade: StandardTrade): Promise<PaidAnswer> {
  const { payload, raw } = decodeStandardPayment(trade.header);
  const cosigned = tryCoSign(deps, raw);
  if (cosigned) {
    const recorded = await findX402Payment(deps.db, cosigned.signature);
    if (recorded) return answerOf(deps, recorded);
  }
  const { quote, offer, slug } = await quoteOfRequest(deps, trade, payload.accepted.extra?.memo);
  const verdict = await verifyStandardPayment(deps, payload, raw, requirementsFor(deps, offer));
  if (!verdict.ok) throw refusedBeforeSending(deps, trade.wallet, verdict.reason, verdict.reason);
  if (verdict.payer !== trade.wallet || !cosigned)
    throw refusedBeforeSending(
      deps,
      verdict.payer,
      'payer_mismatch',
      `the transfer's authority ${verdict.payer} is not the wallet ${trade.wallet}`,
    );
  if (!rateLimitOf(deps).take(verdict.payer))
    throw new DomainError(
      'rate_limited',
      'RATE_LIMITED',
      `Too many payments from ${verdict.payer}; at most ${deps.settings.x402.payerPerMinute} a minute`,
    );
  const row = recordRow(trade, quote, offer, slug, cosigned, raw);
  try {
    await insertX402Payment(deps.db, row);
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return answerOf(deps, (await findX402Payment(deps.db, cosigned.signature))!);
}

function recordRow(
  trade: StandardTrade,
  quote: QuoteRow,
  offer: StandardOffer,
  slug: string,
  cosigned: { signed: Uint8Array; signature: string },
  raw: Uint8Array,
): X402PaymentRow {
  const now = new Date().toISOString();
  return {
    signature: cosigned.signature,
    kind: trade.kind,
    quote_id: quote.id,
    market_id: quote.market_id,
    slug,
    side: quote.side,
    payer: trade.wallet,
    pay_to: offer.payTo,
    amount_raw: BigInt(quote.amount_raw),
    account_fee_raw: BigInt(quote.account_fee_raw),
    quote_issued_at: quote.issued_at,
    transaction: Buffer.from(cosigned.signed).toString('base64'),
    blockhash: blockhashOf(raw),
    state: 'sent',
    answer: null,
    created_at: now,
    updated_at: now,
  };
}

/** The blockhash the payer built on: while it is valid the stored bytes can still land. */
function blockhashOf(raw: Uint8Array): string {
  return VersionedTransaction.deserialize(raw).message.recentBlockhash;
}

async function answerOf(deps: FamilyADeps, row: X402PaymentRow): Promise<PaidAnswer> {
  const answer = await settleRecorded(deps, row);
  if (answer) return replay(answer);
  throw new DomainError(
    'unavailable',
    'PAYMENT_PENDING',
    `Payment ${row.signature} was sent and has not confirmed yet; repeat the same PAYMENT-SIGNATURE (or GET /v2/payments/${row.signature}) shortly`,
  );
}

/**
 * Drives a recorded payment to its decision and answers it; undefined while it is still in
 * flight. Decisions are compare-and-set: whoever decides first (a request, a replay, the resume
 * job) writes the answer everyone else replays.
 */
export async function settleRecorded(deps: FamilyADeps, row: X402PaymentRow): Promise<StoredAnswer | undefined> {
  if (row.state !== 'sent') return JSON.parse(row.answer!) as StoredAnswer;
  const landing = await landPayment(deps, row);
  let decision: { state: X402PaymentRow['state']; answer: StoredAnswer };
  if (landing.fate === 'pending') return undefined;
  if (landing.fate === 'ok') decision = await honourLanded(deps, row);
  else
    decision = {
      state: landing.fate === 'rejected' ? 'rejected' : landing.fate === 'err' ? 'failed' : 'expired',
      answer: unlanded(deps, row, landing),
    };
  if (await decideX402Payment(deps.db, row.signature, decision.state, JSON.stringify(decision.answer))) return decision.answer;
  const decided = await findX402Payment(deps.db, row.signature);
  return decided?.answer ? (JSON.parse(decided.answer) as StoredAnswer) : undefined;
}

/** The refusal of a payment that did not land as a transfer: nothing moved (a failed one spent its network fee). */
function unlanded(deps: FamilyADeps, row: X402PaymentRow, landing: Exclude<LandingFate, { fate: 'ok' | 'pending' }>): StoredAnswer {
  const [reason, message] =
    landing.fate === 'rejected'
      ? ['invalid_exact_svm_transaction_failed', `the cluster refused the payment transaction (${landing.code}): nothing moved`]
      : landing.fate === 'err'
        ? ['invalid_exact_svm_transaction_failed', 'the payment transaction failed on chain: nothing moved, only its network fee was spent']
        : ['transaction_expired', 'the payment transaction expired before it landed: nothing moved'];
  return refusedAnswer(deps, row, new DomainError('payment_required', 'PAYMENT_FAILED', `Payment verification failed: ${message}`), reason);
}
