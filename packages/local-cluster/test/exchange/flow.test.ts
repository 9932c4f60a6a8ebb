/**
 * The smart wallet's whole life on a real embedded ledger: deposit twice, withdraw, split, merge,
 * resolve, redeem. Worked example (raw units): deposit 40 + 60 USDC → smart wallet 100 000 000;
 * withdraw 25 → 75 000 000; split 30 → 45 000 000 USDC + 30 000 000 YES + 30 000 000 NO, vault
 * 30 000 000; merge 10 → 55 000 000 USDC, 20 000 000 each, vault 20 000 000; resolve YES; redeem
 * 20 000 000 YES → 75 000 000 USDC, vault 0; NO tokens stay worthless.
 */
import { PublicKey } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findClobMarketPda,
  getClobMarketStatusInstruction,
  getClobRedeemInstruction,
  getDepositInstruction,
  getMergeInstruction,
  getSplitInstruction,
  getWithdrawInstruction,
} from '@pmx/programs';
import { ExchangeHarness } from '../../src/testing/exchange-harness.js';
import { USDC } from '../../src/testing/program-harness.js';

let h: ExchangeHarness;
beforeAll(async () => {
  h = await ExchangeHarness.open();
});
afterAll(async () => {
  await h.close();
});

describe('exchange program: smart wallet flow', () => {
  it('creates a market with 6-decimal mints whose authority is the market PDA', async () => {
    const uuid = await h.createMarket();
    const m = h.market(uuid);
    expect(m.status).toBe('active');
    expect(m.completeSets).toBe(0n);
    expect(h.vault(uuid)).toBe(0n);
    const mint = Buffer.from(h.ledger.getAccount(m.yesMint)!.data);
    expect(mint.readUInt8(44)).toBe(6); // decimals
    expect(new PublicKey(mint.subarray(4, 36)).equals(findClobMarketPda(uuid)[0])).toBe(true); // mint authority
    expect(mint.readUInt32LE(46)).toBe(0); // no freeze authority
  });

  it('moves every raw unit exactly as the worked example says', async () => {
    const uuid = await h.createMarket();
    const t = await h.wallet(200n * USDC);
    const base = { owner: t.publicKey, usdcMint: h.usdcMint };
    await h.sendOk([getDepositInstruction({ ...base, amount: 40n * USDC })], [t]);
    await h.sendOk([getDepositInstruction({ ...base, amount: 60n * USDC })], [t]);
    expect(h.escrowUsdc(t.publicKey)).toBe(100n * USDC);
    expect(h.usdc(t.publicKey)).toBe(100n * USDC);

    await h.sendOk([getWithdrawInstruction({ ...base, amount: 25n * USDC })], [t]);
    expect(h.escrowUsdc(t.publicKey)).toBe(75n * USDC);
    expect(h.usdc(t.publicKey)).toBe(125n * USDC);

    const op = { ...base, marketUuid: uuid };
    await h.sendOk([getSplitInstruction({ ...op, amount: 30n * USDC })], [t]);
    expect([
      h.escrowUsdc(t.publicKey),
      h.escrowTokens(t.publicKey, uuid, 'yes'),
      h.escrowTokens(t.publicKey, uuid, 'no'),
      h.vault(uuid),
    ]).toEqual([45n * USDC, 30n * USDC, 30n * USDC, 30n * USDC]);
    await h.sendOk([getMergeInstruction({ ...op, amount: 10n * USDC })], [t]);
    expect([h.escrowUsdc(t.publicKey), h.supply(uuid, 'yes'), h.supply(uuid, 'no'), h.vault(uuid), h.market(uuid).completeSets]).toEqual([
      55n * USDC,
      20n * USDC,
      20n * USDC,
      20n * USDC,
      20n * USDC,
    ]);

    await h.sendOk(
      [getClobMarketStatusInstruction({ operator: h.operator.publicKey, marketUuid: uuid, action: 'resolve', outcome: 0 })],
      [h.operator],
    );
    expect(h.market(uuid).outcome).toBe('yes');
    await h.sendOk([getClobRedeemInstruction({ ...op, outcome: 0, amount: 20n * USDC })], [t]);
    expect([
      h.escrowUsdc(t.publicKey),
      h.vault(uuid),
      h.escrowTokens(t.publicKey, uuid, 'yes'),
      h.escrowTokens(t.publicKey, uuid, 'no'),
    ]).toEqual([75n * USDC, 0n, 0n, 20n * USDC]);
    expect(h.usdc(t.publicKey) + h.escrowUsdc(t.publicKey)).toBe(200n * USDC);
  });

  it('pauses, refuses pausing twice, resumes', async () => {
    const uuid = await h.createMarket();
    const ix = (action: 'pause' | 'resume') => getClobMarketStatusInstruction({ operator: h.operator.publicKey, marketUuid: uuid, action });
    await h.sendOk([ix('pause')], [h.operator]);
    expect(h.market(uuid).status).toBe('paused');
    expect(await h.sendErr([ix('pause')], [h.operator])).toBe('InvalidStatusTransition');
    await h.sendOk([ix('resume')], [h.operator]);
    expect(h.market(uuid).status).toBe('active');
    expect(await h.sendErr([ix('resume')], [h.operator])).toBe('InvalidStatusTransition');
  });
});
