// The client writes the 92-byte order message from the docs; @pmx/programs is what the daemon and
// the chain use. Both must agree byte for byte, and the signature must verify over the programs' text.
import { encodeOrderMessage as programsEncode, orderSigningBytes, orderSigningText as programsText } from '@pmx/programs';
import { Keypair } from '@solana/web3.js';
import bs58 from 'bs58';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeOrderMessage, keypairSigner, nextNonce, orderSigningText, signOrder, type OrderFields } from '../src/index.js';
import { verifies } from './verify.js';

const key = fc.uint8Array({ minLength: 32, maxLength: 32 });
const fields = fc.record({
  market: key,
  owner: key,
  side: fc.constantFrom('buy' as const, 'sell' as const),
  outcome: fc.constantFrom('yes' as const, 'no' as const),
  priceBps: fc.integer({ min: 0, max: 0xffff }),
  quantity: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  nonce: fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }),
  expiry: fc.bigInt({ min: -(1n << 63n), max: (1n << 63n) - 1n }),
});

describe('the order message', () => {
  it("equals @pmx/programs' encodeOrderMessage and signing text for any fields", () => {
    fc.assert(
      fc.property(fields, (f) => {
        // Any 32 bytes are an address: base58 of them is what a caller passes.
        const ours: OrderFields = { ...f, market: bs58.encode(f.market), owner: bs58.encode(f.owner) };
        const theirs = f;
        expect([...encodeOrderMessage(ours)]).toEqual([...programsEncode(theirs)]);
        expect(orderSigningText(ours)).toBe(programsText(theirs));
      }),
      { numRuns: 300 },
    );
  });

  it('refuses a field out of its integer range and an address that is not 32 bytes', () => {
    const owner = new Keypair().publicKey.toBase58();
    const ok: OrderFields = { market: owner, owner, side: 'buy', outcome: 'yes', priceBps: 5000, quantity: 1n, nonce: 1n, expiry: 1n };
    expect(() => encodeOrderMessage({ ...ok, priceBps: 65_536 })).toThrow(/u16/);
    expect(() => encodeOrderMessage({ ...ok, quantity: -1n })).toThrow(/u64/);
    expect(() => encodeOrderMessage({ ...ok, nonce: 1n << 64n })).toThrow(/u64/);
    expect(() => encodeOrderMessage({ ...ok, expiry: 1n << 63n })).toThrow(/i64/);
    expect(() => encodeOrderMessage({ ...ok, market: '11111111' })).toThrow(/32-byte/);
  });

  it('signOrder: the body the API wants, signed over the exact text the daemon verifies', async () => {
    const owner = Keypair.generate();
    const market = Keypair.generate().publicKey;
    const body = await signOrder(keypairSigner(owner), {
      market: market.toBase58(),
      side: 'sell',
      outcome: 'no',
      priceBps: 4321,
      quantity: 12_345_678n,
      nonce: 99n,
      expiry: 1_900_000_000,
      timeInForce: 'ioc',
    });
    expect(body).toEqual({
      orderMessage: {
        market: market.toBase58(),
        owner: owner.publicKey.toBase58(),
        side: 1,
        outcome: 1,
        priceBps: 4321,
        quantity: '12345678',
        nonce: '99',
        expiry: '1900000000',
      },
      signature: expect.any(String),
      timeInForce: 'ioc',
    });
    const text = orderSigningBytes({
      market: market.toBytes(),
      owner: owner.publicKey.toBytes(),
      side: 'sell',
      outcome: 'no',
      priceBps: 4321,
      quantity: 12_345_678n,
      nonce: 99n,
      expiry: 1_900_000_000n,
    });
    expect(verifies(owner.publicKey.toBase58(), text, body.signature)).toBe(true);
    expect(verifies(market.toBase58(), text, body.signature)).toBe(false);
  });

  it('nonces are strictly increasing, and defaults are fresh nonces and an expiry an hour ahead', async () => {
    const a = nextNonce();
    const b = nextNonce();
    expect(b).toBeGreaterThan(a);
    const signer = keypairSigner(Keypair.generate());
    const market = Keypair.generate().publicKey.toBase58();
    const [x, y] = await Promise.all(
      [1, 2].map(() => signOrder(signer, { market, side: 'buy', outcome: 'yes', priceBps: 1, quantity: 1n })),
    );
    expect(BigInt(y!.orderMessage.nonce)).not.toBe(BigInt(x!.orderMessage.nonce));
    const expiry = Number(x!.orderMessage.expiry) - Date.now() / 1000;
    expect(expiry).toBeGreaterThan(3590);
    expect(expiry).toBeLessThanOrEqual(3600);
  });
});
