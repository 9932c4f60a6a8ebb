/**
 * Inbound-transfer rows → what clients and operators read (the payments lookup, the `paymentOutcome`
 * of a refused step 2, the admin list): the amount in human units where the decimals are known
 * (USDC and outcome tokens 6, SOL 9), the state, and the refund's progress.
 */
import type { InboundWithRefund } from '../../../db/repositories/family-a-inbound.repository.js';
import { SOL } from '../../domain/family-a/inbound-credits.js';
import type { FamilyADeps } from './family-a.deps.js';

export type RefundStatus = 'pending' | 'sent' | 'confirmed' | 'failed' | 'awaiting_funds';

function human(raw: bigint, decimals: number | null): number | null {
  if (decimals === null) return null;
  return Number(raw) / 10 ** decimals;
}

export function refundStatus(status: string | null, awaitingSince: string | null): RefundStatus | null {
  if (status === null) return null;
  if ((status === 'pending' || status === 'sent') && awaitingSince !== null) return 'awaiting_funds';
  return status as RefundStatus;
}

export function presentTransfer(
  deps: Pick<FamilyADeps, 'usdcMint'>,
  row: InboundWithRefund & { yes_mint?: string | null; no_mint?: string | null },
) {
  const decimals =
    row.asset === SOL ? 9 : row.asset === deps.usdcMint || row.asset === row.yes_mint || row.asset === row.no_mint ? 6 : null;
  const amount = BigInt(row.amount_raw);
  const honoured = BigInt(row.honoured_raw);
  const status = refundStatus(row.refund_status, row.refund_awaiting_funds_since);
  return {
    txHash: row.signature,
    index: Number(row.transfer_index),
    asset: (row.asset === SOL ? 'SOL' : row.asset === deps.usdcMint ? 'USDC' : 'token') as 'SOL' | 'USDC' | 'token',
    mint: row.asset === SOL ? null : row.asset,
    amount: human(amount, decimals),
    amountRaw: amount.toString(),
    honouredAmount: human(honoured, decimals),
    state: row.state,
    reason: row.reason,
    slug: row.slug,
    from: row.sender_account,
    sender: row.sender_owner,
    to: row.account,
    refundAfter: row.state === 'held' ? row.refund_after : null,
    refund:
      row.outbound_id === null
        ? null
        : {
            amount: human(amount - honoured, decimals),
            status,
            signature: row.refund_signature,
            error: status === 'failed' || status === 'awaiting_funds' ? row.refund_error : null,
          },
    recordedAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export type TransferOutcome = ReturnType<typeof presentTransfer>;

/** One sentence for a refusal's message: what became of the money. */
export function describeOutcome(txHash: string, transfers: TransferOutcome[]): string {
  const parts: string[] = [];
  for (const t of transfers) {
    const what = `${t.amount ?? t.amountRaw} ${t.asset === 'token' ? `of token ${t.mint}` : t.asset}`;
    if (t.state === 'refunded')
      parts.push(`${what} ${t.refund?.status === 'confirmed' ? `was refunded (${t.refund.signature})` : 'is being refunded'} to ${t.from}`);
    if (t.state === 'held') parts.push(`${what} stays claimable by a matching quote until ${t.refundAfter}, then it is refunded`);
    if (t.state === 'credited') parts.push(`${what} is credited to this wallet's claim`);
    if (t.state === 'manual') parts.push(`${what} awaits an operator (${t.reason})`);
  }
  if (parts.length === 0) return '';
  return ` Your payment: ${parts.join('; ')}. GET /v2/payments/${txHash} follows it.`;
}
