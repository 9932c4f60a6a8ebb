/**
 * The outbound builder of settlement batches. Each (re)build reads the chain first: fills whose
 * receipt exists have settled and never travel again; orders already on chain travel without
 * their signature. The transaction is simulated before it is handed to the sender: a fill the
 * program refuses (its refusal log names it) is set aside at once (settle-outcomes.ts) and the
 * batch ends without blind retries (an order a registration cannot register fails the batch's
 * fills of that order); anything else (a node hiccup) is an ordinary retry.
 */
import type { OutboundBuilder } from '../../outbound/outbound.types.js';
import { TerminalOutboundError } from '../../outbound/outbound-errors.js';
import { fillsOfBatch } from '../../../../db/repositories/clob-settlement.repository.js';
import { buildSettlementBatch, parseSettleRefusal } from '../../../chain/programs/exchange/index.js';
import type { KeeperDeps } from './keeper.deps.js';
import { marketLookupTables } from './lookup-tables.service.js';
import { fillsOfOrderAccount, readOrderStates, readReceipts, settlementFills } from './settle-inputs.js';
import { confirmBatch, refuseFill } from './settle-outcomes.js';
import type { SettleParams } from './settle-planner.js';

export function settleBuilder(k: KeeperDeps): OutboundBuilder {
  return {
    async build(params, recentBlockhash, { memo }) {
      const { batchId, marketId } = params as SettleParams;
      const rows = await fillsOfBatch(k.c.db, batchId);
      const receipts = await readReceipts(k.c, rows.map((r) => r.id));
      const pending = rows.filter((r) => !receipts.has(r.id));
      if (pending.length === 0) {
        // Settled by a transaction we did not keep (never expected: the sender re-checks before a rebuild).
        await confirmBatch(k, batchId, null);
        throw new TerminalOutboundError('every fill of the batch has a receipt already; nothing to send');
      }
      const inputs = await settlementFills(k.c, pending);
      const batch = buildSettlementBatch(inputs, {
        operator: k.c.operator.publicKey, marketUuid: marketId, usdcMint: k.c.usdcMint, feeWallet: k.c.feeWallet, recentBlockhash, memo,
        orderStates: await readOrderStates(k.c, inputs), programId: k.c.programId, lookupTables: await marketLookupTables(k, marketId),
      });
      batch.transaction.sign([k.c.operator]);
      const raw = batch.transaction.serialize();
      const simulation = await k.c.chain.simulateTransaction(raw);
      if (simulation.err !== null) {
        const parsed = parseSettleRefusal(simulation.logs);
        // A registration carries no fills, so an order it cannot register (e.g. expired) is named
        // without fill ids: the batch's fills of that order can never settle either, and retrying
        // the same registration would loop forever with their holds kept.
        const refusal = parsed && parsed.fillIds.length === 0 && parsed.order ? { ...parsed, fillIds: fillsOfOrderAccount(inputs, parsed.order, k.c.programId) } : parsed;
        if (refusal && refusal.fillIds.length > 0) {
          await refuseFill(k, batchId, refusal);
          throw new TerminalOutboundError(`fill ${refusal.fillIds.join(',')} refused: ${refusal.error}: ${refusal.detail}`);
        }
        throw new Error(`settlement simulation failed: ${JSON.stringify(simulation.err)} ${simulation.logs.slice(-3).join(' | ')}`);
      }
      return raw;
    },
    async onConfirmed(params, signature) {
      await confirmBatch(k, (params as SettleParams).batchId, signature);
    },
  };
}
