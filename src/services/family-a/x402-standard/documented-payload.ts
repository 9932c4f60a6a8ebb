/**
 * A landed standard payment in the documented step 2's terms (its X-PAYMENT payload), so that it
 * is honoured by the same code and money rules as a documented payment (honour-landed.ts).
 */
import type { X402PaymentRow } from '../../../../db/repositories/family-a-x402.repository.js';
import { rawToHuman } from '../../../domain/family-a/money.js';
import type { PaymentPayload } from '../../../domain/family-a/payment-payload.js';
import type { FamilyADeps } from '../family-a.deps.js';

/** `asset`: what the transfer moved (USDC for a buy, the outcome mint for a sell); `amount` includes any account fee. */
export function documentedPayload(deps: FamilyADeps, row: X402PaymentRow, asset: string): PaymentPayload {
  return {
    x402Version: 1,
    network: deps.settings.network,
    txHash: row.signature,
    amount: rawToHuman(BigInt(row.amount_raw) + BigInt(row.account_fee_raw)),
    payer: row.payer,
    payTo: row.pay_to,
    asset,
    quoteIssuedAt: row.quote_issued_at,
  };
}
