/**
 * Order intake's message and signature steps (orders/order-intake.ts) against what a wallet and
 * web3.js make: the 92 bytes rebuilt from the JSON fields are the bytes of `new PublicKey(…)`
 * for each address (leading zero bytes included), the text verified is exactly
 * `orderSigningText` as UTF-8, the stored hex and base64 are the canonical forms of the bytes
 * and the signature whatever form the client sent, and every refusal keeps its code and message.
 * The intake builds the text and decodes the addresses without web3.js (issue 31): these fail if
 * that changes a byte.
 */
import { randomUUID } from 'node:crypto';
import { Keypair, PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCatalogMarket, insertClobTerms } from '../../db/repositories/clob-markets.repository.js';
import type { DatabaseHandle } from '../../db/database.js';
import { findClobMarketPda } from '@pmx/programs';
import { encodeOrderMessage, orderSigningText, toHex } from '../../src/domain/orderbook/index.js';
import { acceptOrder, verifiedOrderMessage, type PlaceOrderInput } from '../../src/services/family-c/orders/order-intake.js';
import { MarketLookup } from '../../src/services/family-c/orders/market-lookup.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { signText } from '../helpers/sign.js';

const owner = Keypair.generate();
/** An address whose first two bytes are zero: base58 `11…`, where a decoder that drops leading zeros would differ. */
const zeroLed = bs58.encode(Uint8Array.from([0, 0, ...Keypair.generate().publicKey.toBytes().subarray(2)]));
const expiry = Math.floor(Date.now() / 1000) + 3600;

function order(
  market: string,
  nonce: bigint,
  sign: (text: string) => string = (text) => bs58.encode(signText(owner, text)),
): PlaceOrderInput {
  const fields = { side: 'sell', outcome: 'no', priceBps: 4321, quantity: 2_000_000n, nonce, expiry: BigInt(expiry) } as const;
  const bytes = encodeOrderMessage({ market: new PublicKey(market).toBytes(), owner: owner.publicKey.toBytes(), ...fields });
  return {
    orderMessage: {
      market,
      owner: owner.publicKey.toBase58(),
      side: 1,
      outcome: 'no',
      priceBps: fields.priceBps,
      quantity: String(fields.quantity),
      nonce: String(nonce),
      expiry: String(expiry),
    },
    signature: sign(orderSigningText(bytes)),
  };
}

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return { ...(error as { kind: string; code: string; message: string }), message: (error as Error).message };
  }
  throw new Error('accepted');
};

describe('verifiedOrderMessage', () => {
  it("rebuilds web3.js's bytes for each address, verifies orderSigningText's bytes, and answers their canonical hex", () => {
    for (const market of [Keypair.generate().publicKey.toBase58(), zeroLed]) {
      const input = order(market, 7n);
      const { message, bytes, hex, signature } = verifiedOrderMessage(input);
      expect(Buffer.from(message.market)).toEqual(Buffer.from(new PublicKey(market).toBytes()));
      expect(Buffer.from(message.owner)).toEqual(Buffer.from(owner.publicKey.toBytes()));
      expect(bytes.slice(0, 32)).toEqual(new PublicKey(market).toBytes());
      expect(hex).toBe(toHex(bytes));
      expect(`PMX Order:\n${hex}`).toBe(orderSigningText(bytes));
      expect(Buffer.from(signature)).toEqual(Buffer.from(bs58.decode(input.signature)));
      // A second parse of the same texts answers the same bytes (the decoded addresses are kept).
      expect(verifiedOrderMessage(input).bytes).toEqual(bytes);
    }
  });

  it('refuses a signature of any other text, a malformed address and a 31-byte one, each with its code and message', () => {
    const market = Keypair.generate().publicKey.toBase58();
    // The same hex in capitals: same message, another text.
    const upper = order(market, 8n, (text) =>
      bs58.encode(
        signText(
          owner,
          text.replace(/[a-f]/g, (c) => c.toUpperCase()),
        ),
      ),
    );
    expect(refusal(() => verifiedOrderMessage(upper))).toMatchObject({
      kind: 'forbidden',
      code: 'INVALID_SIGNATURE',
      message: expect.stringContaining('the signature does not match the message and public key'),
    });
    const short = bs58.encode(new Uint8Array(31).fill(9));
    for (const [field, value] of [
      ['market', 'not-a-key'],
      ['owner', short],
      ['market', `${market}0`],
    ] as const) {
      const input = order(market, 9n);
      expect(refusal(() => verifiedOrderMessage({ ...input, orderMessage: { ...input.orderMessage, [field]: value } }))).toMatchObject({
        code: 'INVALID_ORDER',
        message: `orderMessage.${field} must be a base58 public key`,
      });
    }
    const input = order(market, 10n);
    expect(refusal(() => verifiedOrderMessage({ ...input, signature: input.signature.slice(0, -2) }))).toMatchObject({
      code: 'INVALID_SIGNATURE',
      message: expect.stringContaining('the signature is not 64 bytes in base58 or base64'),
    });
  });
});

describe('acceptOrder', () => {
  let db: DatabaseHandle;
  let marketPubkey: string;
  beforeAll(async () => {
    db = await sqliteDatabase();
    const id = randomUUID();
    const now = new Date().toISOString();
    await insertCatalogMarket(db.db, {
      ...{ id, slug: `m-${id.slice(0, 8)}`, kind: 'clob', name: 'M', description: '', category: 'c', tags: '[]', image_urls: '[]' },
      ...{ status: 'active', creator: null, yes_ticker: 'YES', no_ticker: 'NO', end_date: now, published: 0 },
      ...{ yes_mint: Keypair.generate().publicKey.toBase58(), no_mint: Keypair.generate().publicKey.toBase58() },
      ...{ created_at: now, updated_at: now },
    });
    marketPubkey = findClobMarketPda(id)[0].toBase58();
    await insertClobTerms(db.db, { market_id: id, market_pubkey: marketPubkey, vault: 'v', resolution_rules: '', image_url: '', slot: 0n });
  });
  afterAll(async () => db?.close());

  it('stores the canonical hex and padded base64 whatever form the signature came in', async () => {
    const markets = new MarketLookup({ db: db.db });
    const base58 = order(marketPubkey, 11n);
    const bytes = Buffer.from(bs58.decode(base58.signature));
    // Padded base64 with the last character's two unused bits set: the same 64 bytes, another text.
    const loose = bytes.toString('base64').replace(/.(?===$)/, (c) => {
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
      return alphabet[alphabet.indexOf(c) | 3]!;
    });
    expect(loose).not.toBe(bytes.toString('base64'));
    expect(Buffer.from(loose, 'base64')).toEqual(bytes);
    const now = Math.floor(Date.now() / 1000);
    for (const signature of [base58.signature, bytes.toString('base64'), loose]) {
      const accepted = await acceptOrder(markets, { ...base58, signature }, now);
      expect(accepted).toMatchObject({
        side: 'sell',
        outcome: 'no',
        priceBps: 4321,
        quantity: '2000000',
        nonce: '11',
        expiry,
        signature: bytes.toString('base64'),
        message: toHex(verifiedOrderMessage(base58).bytes),
      });
    }
  });
});
