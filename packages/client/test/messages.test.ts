// Every signed proof: the text the docs name, verified by node's crypto.verify, in the body the route wants.
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  HeartbeatClock,
  keypairSigner,
  signCancel,
  signCancelAll,
  signCancelOrders,
  signConfirmMarket,
  signHeartbeat,
  signReplace,
} from '../src/index.js';
import { verifies } from './verify.js';

const owner = Keypair.generate();
const signer = keypairSigner(owner);
const pubkey = owner.publicKey.toBase58();
const id1 = '0b5c1a9e-8f57-4c1e-9d0a-1e2f3a4b5c6d';
const id2 = 'ffd0c2b1-0000-4000-8000-000000000001';

describe('signed proofs', () => {
  it('cancel: PMX Cancel:<orderId>', async () => {
    const body = await signCancel(signer, id1);
    expect(body).toEqual({ pubkey, signature: expect.any(String) });
    expect(verifies(pubkey, `PMX Cancel:${id1}`, body.signature)).toBe(true);
  });

  it('cancel-all: PMX Cancel All:<marketId|*>:<timestamp>', async () => {
    const body = await signCancelAll(signer, '*', 1_800_000_000);
    expect(body).toEqual({ pubkey, marketId: '*', timestamp: 1_800_000_000, signature: expect.any(String) });
    expect(verifies(pubkey, 'PMX Cancel All:*:1800000000', body.signature)).toBe(true);
    const now = await signCancelAll(signer, 'some-market');
    expect(Math.abs(now.timestamp - Date.now() / 1000)).toBeLessThan(2);
    expect(verifies(pubkey, `PMX Cancel All:some-market:${now.timestamp}`, now.signature)).toBe(true);
  });

  it('cancel by ids: PMX Cancel Orders:<ids joined by ",">:<timestamp>, in the order given', async () => {
    const body = await signCancelOrders(signer, [id2, id1], 1_800_000_001);
    expect(body).toEqual({ pubkey, orderIds: [id2, id1], timestamp: 1_800_000_001, signature: expect.any(String) });
    expect(verifies(pubkey, `PMX Cancel Orders:${id2},${id1}:1800000001`, body.signature)).toBe(true);
    expect(verifies(pubkey, `PMX Cancel Orders:${id1},${id2}:1800000001`, body.signature)).toBe(false);
  });

  it('heartbeat: PMX Heartbeat:<timeoutSec>:<timestamp>; the clock never repeats a second', async () => {
    const body = await signHeartbeat(signer, 30, 1_800_000_002);
    expect(body).toEqual({ pubkey, timeoutSec: 30, timestamp: 1_800_000_002, signature: expect.any(String) });
    expect(verifies(pubkey, 'PMX Heartbeat:30:1800000002', body.signature)).toBe(true);
    const clock = new HeartbeatClock();
    const ticks = [clock.next(), clock.next(), clock.next()];
    expect(ticks[1]).toBe(ticks[0]! + 1);
    expect(ticks[2]).toBe(ticks[0]! + 2);
  });

  it("replace: the old order's PMX Cancel:<id> and a new signed order", async () => {
    const market = Keypair.generate().publicKey.toBase58();
    const body = await signReplace(signer, id1, { market, side: 'buy', outcome: 'yes', priceBps: 4100, quantity: 5n, postOnly: true });
    expect(body).toMatchObject({ cancelSignature: expect.any(String), signature: expect.any(String), postOnly: true });
    expect(verifies(pubkey, `PMX Cancel:${id1}`, body.cancelSignature)).toBe(true);
    expect(body.orderMessage).toMatchObject({ market, owner: pubkey, side: 0, outcome: 0, priceBps: 4100, quantity: '5' });
  });

  it('Family B confirm: PMX Confirm:<marketId>:<timestamp>, with the metadata beside it', async () => {
    const body = await signConfirmMarket(signer, 42, { category: 'crypto', tags: ['x'] }, 1_800_000_003);
    expect(body).toEqual({
      category: 'crypto',
      tags: ['x'],
      marketId: 42,
      wallet: pubkey,
      timestamp: 1_800_000_003,
      signature: expect.any(String),
    });
    expect(verifies(pubkey, 'PMX Confirm:42:1800000003', body.signature)).toBe(true);
  });
});
