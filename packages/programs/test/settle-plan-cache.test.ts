/**
 * The settle assembly remembers each order message it decoded (batch-plan.ts), by object: a
 * message whose bytes changed in place is decoded again, so a batch is always the one its
 * fills' bytes make, and a message that no longer decodes is refused as before.
 */
import { createHash } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { findClobMarketPda } from '../src/exchange/pda.js';
import { buildSettlementBatch } from '../src/exchange/settlement/settlement-batch.js';
import type { SettlementFill } from '../src/exchange/settlement/settlement-types.js';
import { encodeOrderMessage } from '../src/orderbook/order-message.js';

const seeded = (s: string) => Keypair.fromSeed(createHash('sha256').update(s).digest());
const marketUuid = '6f1c1b8e-2f0a-4c1e-9d6b-0a1b2c3d4e5f';
const ctx = {
  operator: seeded('operator').publicKey,
  marketUuid,
  usdcMint: seeded('usdc').publicKey,
  feeWallet: seeded('fees').publicKey,
  recentBlockhash: seeded('blockhash').publicKey.toBase58(),
  tag: new Uint8Array(16),
  orderStates: new Map(),
};

function order(owner: Keypair, side: 'buy' | 'sell', nonce: bigint) {
  const message = encodeOrderMessage({
    market: findClobMarketPda(marketUuid)[0].toBytes(),
    owner: owner.publicKey.toBytes(),
    side,
    outcome: 'yes',
    priceBps: 5000,
    quantity: 1_000_000n,
    nonce,
    expiry: 2_000_000_000n,
  });
  return { message, signature: new Uint8Array(64).fill(7) };
}

const fill = (nonce: bigint): SettlementFill => ({
  fillId: '0b7c2f4e-5d6a-4b8c-9e0f-1a2b3c4d5e6f',
  fillType: 'direct',
  quantity: 1_000_000n,
  takerOrder: order(seeded('taker'), 'buy', nonce),
  makerOrder: order(seeded('maker'), 'sell', 1n),
});
const bytesOf = (f: SettlementFill) => Buffer.from(buildSettlementBatch([f], ctx).transaction.message.serialize());

describe('the settle assembly and an order message changed in place', () => {
  it('builds from the bytes the message holds now, as from a fresh copy', () => {
    const f = fill(5n);
    const before = bytesOf(f);
    expect(bytesOf(f).equals(before)).toBe(true);
    new DataView(f.takerOrder.message.buffer).setBigUint64(76, 6n, true); // the nonce, in place
    const after = bytesOf(f);
    expect(after.equals(before)).toBe(false);
    expect(after.equals(bytesOf(fill(6n)))).toBe(true);
  });

  it('proves the text of the bytes the message holds now (the signed text is remembered too)', () => {
    const f = fill(7n);
    const before = bytesOf(f);
    new DataView(f.takerOrder.message.buffer).setUint16(66, 6000, true); // the price, in place: same accounts
    const after = bytesOf(f);
    expect(after.equals(before)).toBe(false);
    const fresh = fill(7n);
    new DataView(fresh.takerOrder.message.buffer).setUint16(66, 6000, true);
    expect(after.equals(bytesOf(fresh))).toBe(true);
  });

  it('refuses a message that no longer decodes', () => {
    const f = fill(9n);
    bytesOf(f);
    f.takerOrder.message[65] = 7; // the outcome byte
    expect(() => buildSettlementBatch([f], ctx)).toThrow(/outcome byte must be 0 or 1/);
  });
});
