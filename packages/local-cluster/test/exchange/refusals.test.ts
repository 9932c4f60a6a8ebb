/**
 * Every refusal of the exchange program changes nothing on chain: each case snapshots the bytes
 * and lamports of every account involved, submits the bad transaction, checks the error name and
 * compares the snapshot.
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import type { Keypair } from '@solana/web3.js';
import { type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findClobMarketPda,
  findClobOutcomeMintPda,
  findEscrowTokenAddress,
  findUserEscrowPda,
  getClobCreateMarketInstruction,
  getClobMarketStatusInstruction,
  getClobRedeemInstruction,
  getDepositInstruction,
  getExchangeSetFeesInstruction,
  getMergeInstruction,
  getSplitInstruction,
  getWithdrawInstruction,
} from '@pmx/programs';
import { ExchangeHarness } from '../../src/testing/exchange-harness.js';
import { USDC } from '../../src/testing/program-harness.js';

let h: ExchangeHarness;
let alice: Keypair;
let mallory: Keypair;
let uuid: string;

beforeAll(async () => {
  h = await ExchangeHarness.open();
  alice = await h.wallet(100n * USDC);
  mallory = await h.wallet(100n * USDC);
  uuid = await h.createMarket();
  await h.sendOk([getDepositInstruction({ owner: alice.publicKey, usdcMint: h.usdcMint, amount: 50n * USDC })], [alice]);
  await h.sendOk([getSplitInstruction({ owner: alice.publicKey, usdcMint: h.usdcMint, marketUuid: uuid, amount: 10n * USDC })], [alice]);
});
afterAll(async () => {
  await h.close();
});

function watched(owner: PublicKey, market: string): PublicKey[] {
  const yes = findClobOutcomeMintPda(market, 'yes')[0];
  const no = findClobOutcomeMintPda(market, 'no')[0];
  return [
    findUserEscrowPda(owner)[0],
    findEscrowTokenAddress(owner, h.usdcMint),
    findEscrowTokenAddress(owner, yes),
    findEscrowTokenAddress(owner, no),
    getAssociatedTokenAddressSync(h.usdcMint, owner),
    getAssociatedTokenAddressSync(h.usdcMint, mallory.publicKey),
    findClobMarketPda(market)[0],
    h.market(market).vault,
    yes,
    no,
  ];
}

async function refused(ixs: TransactionInstruction[], signers: Keypair[], error: string, market = uuid): Promise<void> {
  const before = h.snapshot(watched(alice.publicKey, market));
  expect(await h.sendErr(ixs, signers)).toBe(error);
  expect(h.snapshot(watched(alice.publicKey, market))).toEqual(before);
}

const unsigned = (ix: TransactionInstruction): TransactionInstruction => {
  ix.keys[0] = { ...ix.keys[0]!, isSigner: false };
  return ix;
};

describe('exchange program refusals change nothing', () => {
  it('operator instructions refuse any other signer', async () => {
    const m = mallory.publicKey;
    await refused(
      [getClobCreateMarketInstruction({ operator: m, marketUuid: crypto.randomUUID(), usdcMint: h.usdcMint })],
      [mallory],
      'Unauthorized',
    );
    for (const action of ['pause', 'resume'] as const) {
      await refused([getClobMarketStatusInstruction({ operator: m, marketUuid: uuid, action })], [mallory], 'Unauthorized');
    }
    await refused(
      [getClobMarketStatusInstruction({ operator: m, marketUuid: uuid, action: 'resolve', outcome: 1 })],
      [mallory],
      'Unauthorized',
    );
    await refused([getExchangeSetFeesInstruction({ operator: m, takerFeeBps: 0, makerRebateBps: 0 })], [mallory], 'Unauthorized');
    await refused(
      [getExchangeSetFeesInstruction({ operator: h.operator.publicKey, takerFeeBps: 25, makerRebateBps: 30 })],
      [h.operator],
      'InvalidFeeRates',
    );
    await refused(
      [getClobMarketStatusInstruction({ operator: h.operator.publicKey, marketUuid: uuid, action: 'resume' })],
      [h.operator],
      'InvalidStatusTransition',
    );
  });

  it("nobody but the owner moves a smart wallet's funds (wrong signer, wrong escrow)", async () => {
    const a = { owner: alice.publicKey, usdcMint: h.usdcMint };
    // The owner's key is in the instruction but did not sign: the fee payer signs alone.
    const withdraw = unsigned(
      getWithdrawInstruction({ ...a, amount: 1n, ownerUsdc: getAssociatedTokenAddressSync(h.usdcMint, mallory.publicKey) }),
    );
    await refused([withdraw], [mallory], 'MissingSigner');
    // Mallory signs but names Alice's escrow and escrow USDC account.
    const steal = getWithdrawInstruction({ owner: mallory.publicKey, usdcMint: h.usdcMint, amount: 1n });
    steal.keys[2] = { ...steal.keys[2]!, pubkey: findUserEscrowPda(alice.publicKey)[0] };
    steal.keys[3] = { ...steal.keys[3]!, pubkey: findEscrowTokenAddress(alice.publicKey, h.usdcMint) };
    await refused([steal], [mallory], 'EscrowMismatch');
    for (const build of [getSplitInstruction, getMergeInstruction]) {
      const ix = build({ owner: mallory.publicKey, usdcMint: h.usdcMint, marketUuid: uuid, amount: 1n });
      ix.keys[1] = { ...ix.keys[1]!, pubkey: findUserEscrowPda(alice.publicKey)[0] };
      await refused([ix], [mallory], 'EscrowMismatch');
      await refused([unsigned(build({ ...a, marketUuid: uuid, amount: 1n }))], [mallory], 'MissingSigner');
    }
    await refused([getWithdrawInstruction({ ...a, amount: 0n })], [alice], 'InvalidAmount');
    await refused([getDepositInstruction({ ...a, amount: 0n })], [alice], 'InvalidAmount');
    // More than the smart wallet holds: the SPL Token program's own InsufficientFunds.
    await refused([getWithdrawInstruction({ ...a, amount: 41n * USDC })], [alice], '{"InstructionError":[0,{"Custom":1}]}');
    await refused([getMergeInstruction({ ...a, marketUuid: uuid, amount: 11n * USDC })], [alice], '{"InstructionError":[0,{"Custom":1}]}');
  });

  it('redeem refuses before resolution; split and merge refuse paused and resolved markets; redeem refuses the losing side', async () => {
    const op = { owner: alice.publicKey, usdcMint: h.usdcMint, marketUuid: uuid, amount: 1n * USDC };
    await refused([getClobRedeemInstruction({ ...op, outcome: 0 })], [alice], 'MarketNotResolved');
    const status = (action: 'pause' | 'resume' | 'resolve', outcome?: 0 | 1) =>
      getClobMarketStatusInstruction({ operator: h.operator.publicKey, marketUuid: uuid, action, outcome });
    await h.sendOk([status('pause')], [h.operator]);
    await refused([getSplitInstruction(op)], [alice], 'MarketPaused');
    await refused([getMergeInstruction(op)], [alice], 'MarketPaused');
    await h.sendOk([status('resolve', 1)], [h.operator]);
    await refused([getSplitInstruction(op)], [alice], 'MarketResolved');
    await refused([getMergeInstruction(op)], [alice], 'MarketResolved');
    await refused([status('resolve', 0)], [h.operator], 'MarketResolved');
    await refused([status('pause')], [h.operator], 'InvalidStatusTransition');
    await refused([getClobRedeemInstruction({ ...op, outcome: 0 })], [alice], 'LosingOutcome');
    await refused([getClobRedeemInstruction({ ...op, outcome: 1, amount: 11n * USDC })], [alice], '{"InstructionError":[0,{"Custom":1}]}');
    await h.sendOk([getClobRedeemInstruction({ ...op, outcome: 1, amount: 10n * USDC })], [alice]);
    expect(h.escrowUsdc(alice.publicKey)).toBe(50n * USDC);
  });

  it('malformed data and unknown instructions are refused', async () => {
    const ix = getDepositInstruction({ owner: alice.publicKey, usdcMint: h.usdcMint, amount: 1n });
    await refused([{ ...ix, data: ix.data.subarray(0, 12) } as TransactionInstruction], [alice], 'InstructionDidNotDeserialize');
    await refused([{ ...ix, data: Buffer.alloc(16, 7) } as TransactionInstruction], [alice], 'InstructionFallbackNotFound');
  });
});
