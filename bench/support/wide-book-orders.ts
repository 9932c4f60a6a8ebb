/**
 * The wide-book bench's orders: where bid j and ask k of a market rest (wide or narrow), and each
 * order signed by its owner as a client signs it (node:crypto's Ed25519 over the signing text),
 * either as the stored message or as the JSON body of `POST /v2/clob/orders`.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { PublicKey, type Keypair } from '@solana/web3.js';
import { encodeOrderMessage, orderSigningText } from '../../src/domain/orderbook/index.js';

/** One order token (6 decimals). */
export const TOKEN = 1_000_000n;

export interface Order {
  owner: Keypair;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  priceBps: number;
  nonce: bigint;
}

/** The resting layout: bid j and ask k of a market, wide or narrow. No two resting orders cross, and YES at 6000 crosses none. */
export function bidPrice(wide: boolean, j: number): { outcome: 'yes' | 'no'; priceBps: number } {
  const level = wide ? j % 8_999 : j % 30;
  if (wide) return level < 5_000 ? { outcome: 'yes', priceBps: level + 1 } : { outcome: 'no', priceBps: level - 5_000 + 1 };
  return level < 15 ? { outcome: 'yes', priceBps: 4_986 + level } : { outcome: 'no', priceBps: 3_985 + level - 15 };
}
export const askPrice = (wide: boolean, k: number) => 6_500 + (wide ? k % 3_500 : k % 10);

const keys = new Map<Keypair, ReturnType<typeof createPrivateKey>>();
const keyOf = (k: Keypair) =>
  keys.get(k) ??
  keys
    .set(
      k,
      createPrivateKey({
        key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(k.secretKey.subarray(0, 32))]),
        format: 'der',
        type: 'pkcs8',
      }),
    )
    .get(k)!;

export function signed(market: string, o: Order, expiry: bigint): { bytes: Uint8Array; signature: string } {
  const bytes = encodeOrderMessage({
    market: new PublicKey(market).toBytes(),
    owner: o.owner.publicKey.toBytes(),
    side: o.side,
    outcome: o.outcome,
    priceBps: o.priceBps,
    quantity: TOKEN,
    nonce: o.nonce,
    expiry,
  });
  return { bytes, signature: sign(null, Buffer.from(orderSigningText(bytes)), keyOf(o.owner)).toString('base64') };
}

export function body(market: string, o: Order, expiry: bigint): string {
  const { signature } = signed(market, o, expiry);
  const orderMessage = {
    market,
    owner: o.owner.publicKey.toBase58(),
    side: o.side === 'buy' ? 0 : 1,
    outcome: o.outcome === 'yes' ? 0 : 1,
    priceBps: o.priceBps,
    quantity: TOKEN.toString(),
    nonce: o.nonce.toString(),
    expiry: expiry.toString(),
  };
  return JSON.stringify({ orderMessage, signature });
}
