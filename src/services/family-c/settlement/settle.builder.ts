/**
 * The outbound builder of settlement batches. The keeper stores each batch's first bytes itself
 * (settle-group.ts), so the sender builds only after they expired. Each build reads the chain
 * first: fills whose receipt exists have settled and never travel again; orders already on chain
 * travel without their signature. The send's preflight executes the transaction: when the program refuses a fill
 * (its refusal log names it), `onRejected` sets it aside at once (settle-outcomes.ts) and the
 * batch ends without blind retries (an order a registration cannot register fails the batch's
 * fills of that order); anything else (a node hiccup) is an ordinary retry. (The keeper used to
 * simulate each batch before sending it: the same execution twice, 12 % of its time.)
 */
import type { OutboundBuilder } from '../../outbound/outbound.types.js';
import { TerminalOutboundError } from '../../outbound/outbound-errors.js';
import { outboundTag } from '../../outbound/outbound-memo.js';
import { fillsOfBatch } from '../../../../db/repositories/clob-settlement.repository.js';
import { buildSettlementBatch, parseSettleRefusal, signAndSerialize } from '@pmx/programs';
import type { KeeperDeps } from './keeper.deps.js';
import { marketLookupTables } from './lookup-tables.service.js';
import { fillsOfOrderAccount, readOrderStates, readReceipts, settlementFills } from './settle-inputs.js';
import { confirmBatch } from './settle-outcomes.js';
import { refuseFill } from './settle-refused-fill.js';
import { isPrecompileRefusal, refuseBadProofs } from './settle-proof-refusal.js';
import type { SettleParams } from './settle-group.js';

export function settleBuilder(k: KeeperDeps): OutboundBuilder {
  return {
    async build(params, recentBlockhash, { outboundId }) {
      const { batchId, marketId } = params as SettleParams;
      const rows = await fillsOfBatch(k.c.db, batchId);
      const receipts = await readReceipts(
        k.c,
        rows.map((r) => r.id),
      );
      const pending = rows.filter((r) => !receipts.has(r.id));
      if (pending.length === 0) {
        // Settled by a transaction we did not keep (never expected: the sender re-checks before a rebuild).
        await confirmBatch(k, batchId, null);
        throw new TerminalOutboundError('every fill of the batch has a receipt already; nothing to send');
      }
      const inputs = await settlementFills(k.c, pending);
      const context = {
        operator: k.c.operator.publicKey,
        marketUuid: marketId,
        usdcMint: k.c.usdcMint,
        feeWallet: k.c.feeWallet,
        recentBlockhash,
        tag: outboundTag(outboundId),
        orderStates: await readOrderStates(k.c, inputs),
        programId: k.c.programId,
        lookupTables: await marketLookupTables(k, marketId),
      };
      // A registration whose orders are on chain by now (it landed before a restart) settles its fill instead.
      const batch = buildSettlementBatch(inputs, context);
      return signAndSerialize(batch.transaction, [k.c.operator]);
    },
    async onRejected(params, error) {
      const { batchId } = params as SettleParams;
      const detail = error.detail as { logs?: string[]; err?: unknown } | undefined;
      const parsed = parseSettleRefusal(detail?.logs ?? []);
      if (!parsed && isPrecompileRefusal(detail?.err)) {
        // The Ed25519 program refused a proof: the order whose signature fails is named and set aside (settle-proof-refusal.ts).
        const failed = await refuseBadProofs(k, batchId);
        if (failed.length > 0)
          throw new TerminalOutboundError(`fills ${failed.join(',')} failed: an order proof is refused by the Ed25519 program`);
      }
      if (!parsed) return; // not the program's refusal of a fill or an order: an ordinary retry
      // A registration carries no fills, so an order it cannot register (e.g. expired) is named
      // without fill ids: the batch's fills of that order can never settle either, and retrying
      // the same registration would loop forever with their holds kept.
      let fillIds = parsed.fillIds;
      if (fillIds.length === 0 && parsed.order)
        fillIds = fillsOfOrderAccount(await settlementFills(k.c, await fillsOfBatch(k.c.db, batchId)), parsed.order, k.c.programId);
      if (fillIds.length === 0) return;
      await refuseFill(k, batchId, { ...parsed, fillIds });
      throw new TerminalOutboundError(`fill ${fillIds.join(',')} refused: ${parsed.error}: ${parsed.detail}`);
    },
    async onConfirmed(params, signature) {
      await confirmBatch(k, (params as SettleParams).batchId, signature);
    },
  };
}
