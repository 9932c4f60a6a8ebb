/**
 * What an owner's orders and unsettled fills hold is computed twice — in the database for the
 * placement check (the batch start: resting orders summed, fills from the holds ledger) and
 * in the domain from the rows themselves (ownerHolds) — and the two must agree on every mix of
 * rows, on both dialects. The positions job's question (has an owner a fill on its way in a
 * market?) is answered by one row and must agree with the full read.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  addOwnerHolds,
  restingCommitments,
  UNSETTLED_FILL_STATUSES,
  unsettledFillsOf,
  hasUnsettledFill,
} from '../../db/repositories/clob-commitments.repository.js';
import { readBatchStart } from '../../src/services/family-c/matcher/batch-reads.js';
import { fillHolds, ownerHolds } from '../../src/domain/orderbook/index.js';
import { EXCHANGE_PROGRAM_ID } from '@pmx/programs';
import type { AcceptedOrder } from '../../src/services/family-c/orders/order-intake.js';
import { DIALECTS } from '../helpers/databases.js';

const OWNERS = [Keypair.generate().publicKey.toBase58(), Keypair.generate().publicKey.toBase58()];
const MARKETS = ['m1', 'm2'];
const side = fc.constantFrom('buy' as const, 'sell' as const);
const outcome = fc.constantFrom('yes' as const, 'no' as const);
const amount = fc.bigInt({ min: 0n, max: 10n ** 12n });
const orderRow = fc.record({
  owner: fc.constantFrom(...OWNERS),
  market: fc.constantFrom(...MARKETS),
  side,
  outcome,
  committed: amount,
  status: fc.constantFrom('open', 'partially_filled', 'filled', 'cancelled'),
});
const fillRow = fc.record({
  maker: fc.constantFrom(...OWNERS),
  taker: fc.constantFrom(...OWNERS),
  market: fc.constantFrom(...MARKETS),
  takerSide: side,
  outcome,
  makerSide: side,
  makerOutcome: outcome,
  quantity: amount,
  usdc: amount,
  makerUsdc: amount,
  fee: amount,
  status: fc.constantFrom('matched', 'settling', 'retrying', 'settled', 'failed', 'failed_insufficient_balance'),
});

describe.each(DIALECTS)('holds on $name', ({ available, open }) => {
  it.skipIf(!available)(
    'the database sums equal the domain rule',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(orderRow, { maxLength: 12 }), fc.array(fillRow, { maxLength: 12 }), async (orders, fills) => {
          const db = await open();
          try {
            const now = new Date().toISOString();
            for (const [i, o] of orders.entries()) {
              await db.db
                .insertInto('clob_orders')
                .values({
                  id: randomUUID(),
                  market_id: o.market,
                  owner: o.owner,
                  side: o.side,
                  outcome: o.outcome,
                  price_bps: 5000,
                  quantity: 1n,
                  remaining: 1n,
                  status: o.status as 'open',
                  order_type: 'limit',
                  time_in_force: 'gtc',
                  post_only: 0,
                  nonce: String(i),
                  expiry: 0n,
                  message: '',
                  signature: '',
                  seq: BigInt(i),
                  notional: 0n,
                  usdc: 0n,
                  committed: o.committed,
                  cancel_reason: null,
                  created_at: now,
                  updated_at: now,
                })
                .execute();
            }
            for (const [i, f] of fills.entries()) {
              if ((UNSETTLED_FILL_STATUSES as readonly string[]).includes(f.status)) {
                await addOwnerHolds(
                  db.db,
                  fillHolds({
                    market_id: f.market,
                    maker_owner: f.maker,
                    taker_owner: f.taker,
                    taker_side: f.takerSide,
                    outcome: f.outcome,
                    maker_side: f.makerSide,
                    maker_outcome: f.makerOutcome,
                    quantity: f.quantity,
                    usdc_amount: f.usdc,
                    maker_usdc: f.makerUsdc,
                    taker_fee: f.fee,
                  }),
                  1n,
                );
              }
              await db.db
                .insertInto('clob_fills')
                .values({
                  id: randomUUID(),
                  market_id: f.market,
                  seq: BigInt(i),
                  maker_order_id: 'a',
                  taker_order_id: 'b',
                  maker_owner: f.maker,
                  taker_owner: f.taker,
                  taker_side: f.takerSide,
                  outcome: f.outcome,
                  price_bps: 5000,
                  maker_side: f.makerSide,
                  maker_outcome: f.makerOutcome,
                  maker_price_bps: 5000,
                  fill_type: 'direct',
                  quantity: f.quantity,
                  usdc_amount: f.usdc,
                  maker_usdc: f.makerUsdc,
                  taker_fee: f.fee,
                  maker_rebate: 0n,
                  protocol_fee: 0n,
                  rounding_dust: 0n,
                  status: f.status as 'matched',
                  retry_count: 0,
                  failure_reason: null,
                  batch_id: null,
                  settle_tx: null,
                  positions_applied: 0,
                  matched_at: now,
                  settled_at: null,
                  updated_at: now,
                })
                .execute();
            }
            const placing = OWNERS.map((owner, i) => ({ owner, nonce: `x${i}` }) as unknown as AcceptedOrder);
            const { starts } = await db.db
              .transaction()
              .execute((trx) => readBatchStart(trx, placing, { programId: EXCHANGE_PROGRAM_ID, usdcMint: 'usdc', markets: new Map() }));
            for (const owner of OWNERS) {
              const unsettled = await unsettledFillsOf(db.db, owner);
              const holds = ownerHolds(owner, await restingCommitments(db.db, owner), unsettled);
              // The positions job's one-row question agrees with the full read, per market.
              for (const m of MARKETS) expect(await hasUnsettledFill(db.db, owner, m)).toBe(unsettled.some((f) => f.market_id === m));
              expect(starts.get(owner)!.usdcHeld).toBe(holds.usdc);
              for (const m of MARKETS)
                for (const o of ['yes', 'no'] as const)
                  expect(starts.get(owner)!.tokensHeld.get(`${m}:${o}`) ?? 0n).toBe(holds.markets.get(m)?.[o] ?? 0n);
            }
          } finally {
            await db.close();
          }
        }),
        { numRuns: 25 },
      );
    },
    120_000,
  );
});
