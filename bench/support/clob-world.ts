/**
 * The orderbook benches' shared world: two funded traders on one market of a daemon (the seller
 * holding YES), signed order bodies made before any timing, the JSON client, and the run's
 * database (a fresh PostgreSQL database with BENCH_CLOB_DB=postgres, else SQLite in the data dir).
 */
import { createPrivateKey, createPublicKey, sign } from 'node:crypto';
import { Connection, Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';
import pg from 'pg';
import { encodeOrderMessage, orderSigningText } from '../../src/domain/orderbook/index.js';

export const ADMIN = 'bench-clob-admin-token-0123456789';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const pkcs8 = (k: Keypair) =>
  createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(k.secretKey.subarray(0, 32))]),
    format: 'der',
    type: 'pkcs8',
  });
export const spki = (k: Keypair) =>
  createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b6570032100', 'hex'), k.publicKey.toBuffer()]),
    format: 'der',
    type: 'spki',
  });

export function signedBody(
  owner: Keypair,
  key: ReturnType<typeof pkcs8>,
  market: string,
  side: 'buy' | 'sell',
  nonce: bigint,
  expiry: bigint,
): { body: string; text: string; sig: Buffer } {
  const bytes = encodeOrderMessage({
    market: new PublicKey(market).toBytes(),
    owner: owner.publicKey.toBytes(),
    side,
    outcome: 'yes',
    priceBps: 5000,
    quantity: 1_000_000n,
    nonce,
    expiry,
  });
  const text = orderSigningText(bytes);
  const sig = sign(null, Buffer.from(text), key);
  const orderMessage = {
    market,
    owner: owner.publicKey.toBase58(),
    side: side === 'buy' ? 0 : 1,
    outcome: 0,
    priceBps: 5000,
    quantity: '1000000',
    nonce: nonce.toString(),
    expiry: expiry.toString(),
  };
  return { body: JSON.stringify({ orderMessage, signature: sig.toString('base64') }), text, sig };
}

export type Api = (method: string, path: string, body?: unknown, admin?: boolean) => Promise<Json>;

export function apiOf(url: string): Api {
  return async (method, path, body, admin = false) => {
    const res = await fetch(`${url}${path}`, {
      method,
      body: body ? JSON.stringify(body) : undefined,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(admin ? { authorization: `Bearer ${ADMIN}` } : {}) },
    });
    const json = (await res.json()) as Json;
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** Signs an unsigned transaction the API built (base64), sends it and waits until it is confirmed. */
export async function signAndConfirm(conn: Connection, base64: string, signer: Keypair): Promise<void> {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  tx.sign([signer]);
  const sig = await conn.sendRawTransaction(tx.serialize());
  for (;;) {
    const [s] = (await conn.getSignatureStatuses([sig])).value;
    if (s && s.confirmationStatus !== 'processed') return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** An orderbook market open for a day, created through the admin API. */
export async function createBenchMarket(api: Api, title: string): Promise<Json> {
  const body = {
    title,
    description: 'x',
    resolutionRules: 'x',
    category: 'bench',
    endDate: new Date(Date.now() + 86_400_000).toISOString(),
    yesTicker: 'Y',
    noTicker: 'N',
  };
  return (await api('POST', '/v2/admin/clob/markets', body, true)).market as Json;
}

/** A market and two funded traders (the seller holding YES), made by one all-roles process: the dev faucet needs the ledger in-process. */
export async function setUp(api: Api): Promise<{ market: Json; buyer: Keypair; seller: Keypair }> {
  const conn = new Connection((await api('GET', '/v2/config')).data.rpcUrl as string, 'confirmed');
  const send = (base64: string, signer: Keypair) => signAndConfirm(conn, base64, signer);
  const market = await createBenchMarket(api, 'Bench market');
  const buyer = Keypair.generate();
  const seller = Keypair.generate();
  for (const t of [buyer, seller]) {
    await api('POST', '/v2/dev/faucet', { wallet: t.publicKey.toBase58(), usdc: '1000000000000', sol: '10000000000' });
    await send((await api('POST', '/v2/clob/account/deposit', { pubkey: t.publicKey.toBase58(), amount: '900000000000' })).transaction, t);
  }
  await waitForBalance(api, seller, (b) => b.smartWalletBalance === '900000000000'); // the deposit indexed
  await send(
    (await api('POST', '/v2/clob/account/split', { pubkey: seller.publicKey.toBase58(), marketId: market.id, amount: '500000000000' }))
      .transaction,
    seller,
  );
  await waitForYes(api, seller, '500000000000');
  return { market, buyer, seller };
}

async function waitForBalance(api: Api, owner: Keypair, done: (balances: Json) => boolean): Promise<void> {
  for (;;) {
    if (done(await api('GET', `/v2/clob/account/balances?pubkey=${owner.publicKey.toBase58()}`))) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export const waitForYes = (api: Api, owner: Keypair, amount: string) =>
  waitForBalance(api, owner, (b) => b.markets[0]?.yesTokens === amount);

/** A fresh PostgreSQL database for the run (dropped after), or SQLite in the data dir. */
export async function benchDatabase(): Promise<{ env: Record<string, string>; drop(): Promise<void> }> {
  if (process.env.BENCH_CLOB_DB !== 'postgres') return { env: {}, drop: async () => undefined };
  const server = new URL(process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const name = `pmx_bench_${process.pid}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: server.toString() });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(server.toString());
  url.pathname = `/${name}`;
  return { env: { DATABASE_URL: url.toString() }, drop: () => admin(`drop database if exists ${name} with (force)`) };
}
