/**
 * Operator views of Family A money (issue 8 items 2 and 3): inbound transfers that were not
 * simply honoured (held, refunded, credited, left to an operator), and platform transactions
 * waiting for funds. Read by the admin API, the /admin/money page and the Prometheus gauges.
 */
import { num } from '../../../db/codec.js';
import { countInbound, listInboundByState, type InboundState } from '../../../db/repositories/family-a-inbound.repository.js';
import { awaitingFundsSummary, listOutbound } from '../outbound/outbound-admin.js';
import type { FamilyADeps } from './family-a.deps.js';
import { presentTransfer, refundStatus } from './transfer-outcome.presenter.js';

/** `open`: what still needs something to happen (held, credited, manual). */
export type TransferFilter = InboundState | 'open';

export async function listTransfers(deps: Pick<FamilyADeps, 'db' | 'usdcMint'>, filter: TransferFilter, limit: number, offset: number) {
  const states: InboundState[] = filter === 'open' ? ['held', 'credited', 'manual'] : [filter];
  const rows = await listInboundByState(deps.db, states, limit, offset);
  return rows.map((r) => presentTransfer(deps, r));
}

/**
 * Counts for gauges and the page: transfers by state (refunds split by their transaction's
 * status, so an unpaid refund shows), and payouts waiting for funds per purpose.
 */
export async function moneyCounts(deps: Pick<FamilyADeps, 'db'>) {
  const transfers = (await countInbound(deps.db)).map((r) => ({
    state: r.state === 'refunded' ? `refund_${refundStatus(r.refund_status, null) ?? 'pending'}` : r.state,
    count: num(r.n),
  }));
  return { transfers, awaitingFunds: await awaitingFundsSummary(deps.db) };
}

/** Needs only the database and the USDC mint, so that the console can render it beside the solvency checks. */
export async function moneyOverview(deps: Pick<FamilyADeps, 'db' | 'usdcMint'>) {
  const [counts, awaiting, open, refunds] = await Promise.all([
    moneyCounts(deps),
    listOutbound(deps.db, 'awaiting_funds'),
    listTransfers(deps, 'open', 100, 0),
    listTransfers(deps, 'refunded', 50, 0),
  ]);
  return { counts, awaitingFunds: awaiting, openTransfers: open, recentRefunds: refunds };
}
