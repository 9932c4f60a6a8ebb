/**
 * The state the HTTP benches read, built through the daemon's own API in its own process: a
 * Family B market created, confirmed (so it has a slug) and traded both ways by one trader
 * (whose positions are indexed before this returns), and CATALOG Family A markets written to
 * the daemon's SQLite file beside it (WAL: the daemon keeps running).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { Connection, Keypair, PublicKey, Transaction } from '@solana/web3.js';
import { openSqlite } from '../../db/database.js';
import { confirmMarketText } from '../../src/domain/signed-message.js';
import type { DaemonProcess } from '../../test/daemon/daemon-process.js';
import { signTextBase58 } from '../../test/helpers/sign.js';
import { seedCatalog } from './catalog-seed.js';

export const CATALOG = 1_000;

const ROOT = path.resolve(import.meta.dirname, '../..');

/**
 * How the benches run the daemon: the compiled JavaScript, as `npm start` does (built first when
 * stale), or with `BENCH_DAEMON=tsx` the sources through tsx (what the tests run).
 */
export function daemonEntry(): string[] {
  if (process.env.BENCH_DAEMON === 'tsx') return ['--conditions=pmx-source', '--import', 'tsx', 'src/main.ts'];
  const built = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build-if-stale.mjs')], { cwd: ROOT, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building dist/ failed');
  return ['dist/src/main.js'];
}

type Json = Record<string, unknown>;

export async function call(base: string, method: string, path: string, body?: Json): Promise<Json> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json()) as Json;
  if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data as Json;
}

async function signAndSend(conn: Connection, base64: string, signer: Keypair): Promise<void> {
  const tx = Transaction.from(Buffer.from(base64, 'base64'));
  tx.sign(signer);
  await conn.confirmTransaction(await conn.sendRawTransaction(tx.serialize()), 'confirmed');
}

export interface Fixture {
  rpcUrl: string;
  marketId: number;
  slug: string;
  trader: Keypair;
  usdcMint: PublicKey;
}

/** A market created, confirmed (so it has a slug) and traded both ways, and a Family A catalog. */
export async function setUp(daemon: DaemonProcess): Promise<Fixture> {
  const base = daemon.url;
  const config = await call(base, 'GET', '/v2/config');
  const conn = new Connection(config.rpcUrl as string, 'confirmed');
  const creator = Keypair.generate();
  const trader = Keypair.generate();
  for (const w of [creator, trader])
    await call(base, 'POST', '/v2/dev/faucet', { wallet: w.publicKey.toBase58(), usdc: '100000000000', sol: '2000000000' });
  const created = await call(base, 'POST', '/v2/markets/create', {
    wallet: creator.publicKey.toBase58(),
    title: 'Bench table market',
    description: 'Issue 15 table',
    yesTicker: 'UP',
    noTicker: 'DOWN',
    resolutionTime: Math.floor(Date.now() / 1000) + 86_400,
    seedAmount: 100_000_000,
    tradeFeeBps: 200,
  });
  await signAndSend(conn, created.transaction as string, creator);
  const marketId = created.marketId as number;
  await signAndSend(
    conn,
    (await call(base, 'POST', `/v2/markets/${marketId}/init-mints`, { wallet: creator.publicKey.toBase58() })).transaction as string,
    creator,
  );
  const timestamp = Math.floor(Date.now() / 1000);
  const confirmed = await call(base, 'POST', '/v2/markets/confirm', {
    marketId,
    wallet: creator.publicKey.toBase58(),
    timestamp,
    signature: signTextBase58(creator, confirmMarketText(marketId, timestamp)),
  });
  for (const side of ['UP', 'DOWN']) {
    const bought = await call(base, 'POST', `/v2/markets/${marketId}/buy`, {
      wallet: trader.publicKey.toBase58(),
      side,
      amount: 5_000_000,
    });
    await signAndSend(conn, bought.transaction as string, trader);
  }
  const wallet = trader.publicKey.toBase58();
  for (let i = 0; ; i++) {
    const positions = (await call(base, 'GET', `/v2/positions/${wallet}`)) as unknown as Array<{ yesBalance: number; noBalance: number }>;
    if (positions[0]?.yesBalance && positions[0].noBalance) break;
    if (i > 200) throw new Error('positions were not indexed');
    await new Promise((r) => setTimeout(r, 50));
  }
  const catalog = openSqlite(path.join(daemon.dataDir, 'pmx.db'));
  await seedCatalog(catalog.db, CATALOG, 'bench');
  await catalog.close();
  return {
    rpcUrl: config.rpcUrl as string,
    marketId,
    slug: confirmed.slug as string,
    trader,
    usdcMint: new PublicKey(config.usdcMint as string),
  };
}
