/** Signed Family C order bodies, as a wallet produces them (`PMX Order:\n` + hex of the 92 bytes). */
import { PublicKey, type Keypair } from '@solana/web3.js';
import { encodeOrderMessage, orderSigningText } from '../../src/domain/orderbook/index.js';
import { signText } from './sign.js';

export interface OrderSpec {
  market: string;
  side: 'buy' | 'sell';
  outcome: 'yes' | 'no';
  priceBps: number;
  quantity: bigint;
  nonce?: bigint;
  /** Unix seconds; a bigint for values a number cannot hold exactly (e.g. the largest i64). */
  expiry?: number | bigint;
  orderType?: 'limit' | 'market';
  timeInForce?: 'gtc' | 'ioc' | 'fok';
  postOnly?: boolean;
}

let nonceCounter = BigInt(Date.now()) * 1000n + BigInt(process.pid % 1000);

/** `sign` makes the signature (a forger's in the strict-signature tests); a wallet's by default. */
export function signedOrder(
  owner: Keypair,
  o: OrderSpec,
  sign: (owner: Keypair, text: string) => Uint8Array = signText,
): Record<string, unknown> {
  const orderMessage = {
    market: o.market,
    owner: owner.publicKey.toBase58(),
    side: o.side === 'buy' ? 0 : 1,
    outcome: o.outcome === 'yes' ? 0 : 1,
    priceBps: o.priceBps,
    quantity: o.quantity.toString(),
    nonce: (o.nonce ?? ++nonceCounter).toString(),
    expiry: String(o.expiry ?? Math.floor(Date.now() / 1000) + 3600),
  };
  const bytes = encodeOrderMessage({
    market: new PublicKey(o.market).toBytes(),
    owner: owner.publicKey.toBytes(),
    side: o.side,
    outcome: o.outcome,
    priceBps: o.priceBps,
    quantity: o.quantity,
    nonce: BigInt(orderMessage.nonce),
    expiry: BigInt(orderMessage.expiry),
  });
  const signature = Buffer.from(sign(owner, orderSigningText(bytes))).toString('base64');
  return {
    orderMessage,
    signature,
    ...(o.orderType ? { orderType: o.orderType } : {}),
    ...(o.timeInForce ? { timeInForce: o.timeInForce } : {}),
    ...(o.postOnly ? { postOnly: true } : {}),
  };
}
