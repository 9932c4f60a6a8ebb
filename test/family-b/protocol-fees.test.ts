/**
 * The protocol-fee keeper on the real stack: trades accrue the protocol half of the trade fee in
 * the market account; the sweep job moves exactly that to the protocol fee wallet's USDC account
 * through a persisted outbound transaction, and never records a second sweep for the same amount.
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FamilyBContext } from '../../src/services/family-b/context.js';
import { readMarketFromChain } from '../../src/services/family-b/market-reader.js';
import { recordProtocolFeeSweeps } from '../../src/services/family-b/protocol-fees.service.js';
import { buy, createMarket, fundedWallet, openHarness, USDC, waitFor, type BHarness } from './family-b.harness.js';

let h: BHarness;
let ctx: FamilyBContext;

beforeAll(async () => {
  h = await openHarness({ PROTOCOL_FEE_SWEEP_INTERVAL_MS: '0' });
  const chain = h.daemon.chain;
  ctx = {
    db: h.daemon.db.db,
    chain: chain.client,
    programId: chain.programs.market,
    usdcMint: chain.usdcMint,
    log: pino({ level: 'silent' }),
  };
});
afterAll(async () => {
  await h?.close();
});

async function protocolWalletUsdc(): Promise<bigint> {
  const ata = getAssociatedTokenAddressSync(h.usdcMint, h.daemon.chain.wallets.protocolFee.publicKey, true);
  return h.ledger.getTokenBalance(ata);
}

async function fees(marketId: number) {
  const market = await readMarketFromChain(ctx, BigInt(marketId));
  return { accrued: market!.account.protocolFeesAccrued, claimed: market!.account.protocolFeesClaimed };
}

describe('protocol fee sweep', () => {
  it('sweeps exactly the accrued protocol fees, once per amount', async () => {
    const creator = await fundedWallet(h);
    const trader = await fundedWallet(h);
    const marketId = await createMarket(h, creator, { tradeFeeBps: 200 });
    const before = await protocolWalletUsdc();

    // 100 USDC at 2 %: trade fee 2 USDC, half (1 USDC) to the protocol.
    await buy(h, marketId, trader, 'UP', 100 * USDC);
    const first = await fees(marketId);
    expect(first).toEqual({ accrued: 1_000_000n, claimed: 0n });

    await h.daemon.queues.enqueue('market.protocol-fees.sweep', { scheduledBy: 'test' });
    await waitFor('the first sweep', async () => ((await protocolWalletUsdc()) - before === first.accrued ? true : undefined), 10_000);
    expect(await fees(marketId)).toEqual({ accrued: 1_000_000n, claimed: 1_000_000n });
    expect(await recordProtocolFeeSweeps(ctx)).toEqual([]); // nothing due

    // A second trade accrues more; its sweep is recorded once, however often the scan runs.
    await buy(h, marketId, trader, 'DOWN', 50 * USDC);
    const second = await fees(marketId);
    expect(second.accrued).toBe(1_500_000n);
    const recorded = await recordProtocolFeeSweeps(ctx);
    expect(recorded).toHaveLength(1);
    expect(await recordProtocolFeeSweeps(ctx)).toEqual([]);

    await h.daemon.queues.enqueue('outbound.send', { outboundId: recorded[0]! });
    await waitFor('the second sweep', async () => ((await protocolWalletUsdc()) - before === second.accrued ? true : undefined), 10_000);
    expect(await fees(marketId)).toEqual({ accrued: 1_500_000n, claimed: 1_500_000n });
  });
});
