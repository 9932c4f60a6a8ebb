/**
 * A standard payment that landed is honoured exactly as the documented step 2 honours a landed
 * transfer (buy.service.ts / sell.service.ts): the same quote (rebuilt from the recorded row, so
 * a quote pruned meanwhile changes nothing), the exact-amount rule, the payment row whose unique
 * signature stops a second delivery, and refusal accounting for a refused trade (its money
 * refunded or held, and said so). A payment some other process honoured first is answered from
 * its payment record.
 */
import type { QuoteRow } from '../../../../db/repositories/family-a-trades.repository.js';
import type { X402PaymentRow } from '../../../../db/repositories/family-a-x402.repository.js';
import { isDomainError } from '../../../domain/errors.js';
import { rawToHuman } from '../../../domain/family-a/money.js';
import { honourStandardBuy } from '../buy.service.js';
import type { FamilyADeps } from '../family-a.deps.js';
import { AlreadyProcessed, paymentStatus } from '../payment-status.service.js';
import { honourStandardSell } from '../sell.service.js';
import { paidAnswer, refusedAnswer, type StoredAnswer } from './standard-answers.js';

function quoteOfRow(row: X402PaymentRow): QuoteRow {
  return {
    id: row.quote_id,
    market_id: row.market_id,
    wallet: row.payer,
    side: row.side,
    kind: row.kind,
    amount_raw: row.amount_raw,
    account_fee_raw: row.account_fee_raw,
    issued_at: row.quote_issued_at,
    expires_at: row.quote_issued_at,
  };
}

/** The documented step-2 result, read back from the payment record (GET /v2/payments/{tx}). */
async function resultFromRecord(deps: FamilyADeps, row: X402PaymentRow) {
  const p = await paymentStatus(deps, row.signature);
  const platformSignature = p.platformSignatures[0] ?? null;
  const common = { slug: row.slug, side: row.side, wallet: row.payer, deliveryStatus: p.status };
  if (row.kind === 'buy')
    return {
      ...common,
      action: 'buy' as const,
      amount: rawToHuman(BigInt(row.amount_raw)),
      tokenAmount: p.deliverAmount,
      paymentTxHash: row.signature,
      tokenTransferTxHash: platformSignature,
    };
  return {
    ...common,
    action: 'sell' as const,
    tokenAmount: rawToHuman(BigInt(row.amount_raw)),
    usdcPayout: p.deliverAmount,
    tokenTransferTxHash: row.signature,
    usdcPayoutTxHash: platformSignature,
  };
}

export async function honourLanded(
  deps: FamilyADeps,
  row: X402PaymentRow,
): Promise<{ state: 'honoured' | 'refused'; answer: StoredAnswer }> {
  const quote = quoteOfRow(row);
  try {
    const data = row.kind === 'buy' ? await honourStandardBuy(deps, row, quote) : await honourStandardSell(deps, row, quote);
    return { state: 'honoured', answer: paidAnswer(deps, row, data) };
  } catch (error) {
    if (error instanceof AlreadyProcessed) return { state: 'honoured', answer: paidAnswer(deps, row, await resultFromRecord(deps, row)) };
    if (!isDomainError(error)) throw error;
    return { state: 'refused', answer: refusedAnswer(deps, row, error, error.code.toLowerCase()) };
  }
}
