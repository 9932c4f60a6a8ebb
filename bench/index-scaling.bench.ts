/**
 * Issue 15's scaling bench of the Family B indexer: a full index pass over 100, 1,000 and 10,000
 * markets (each with a YES and a NO token account, beside unrelated token accounts of another
 * mint) laid out directly in an in-memory ledger, and what a request waits meanwhile: GET
 * /health on a Fastify app in this process (the pass's event loop), probed every 5 ms from
 * another process (bench/support/latency-probe.ts; open loop, so a stall delays every probe
 * sent during it), plus the event loop's own delay. A linear pass keeps the time per market
 * flat; the goal is /health p99 under 50 ms at every size. `BENCH_INDEX_SIZES` picks the sizes.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Fastify from 'fastify';
import { ACCOUNT_SIZE, AccountLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import { pino } from 'pino';
import { EmbeddedChainClient } from '../src/chain/adapters/embedded.adapter.js';
import { createMarketProgramHandler, EmbeddedLedger } from '@pmx/local-cluster';
import { encodeMarketAccount, findMarketPda, findNoMintPda, findYesMintPda, MARKET_PROGRAM_ID, type MarketAccount } from '@pmx/programs';
import { fullIndexPass } from '../src/services/family-b/market-index.service.js';
import { sqliteDatabase } from '../test/helpers/databases.js';
import { startLatencyProbe } from './support/start-latency-probe.js';

const SIZES = (process.env.BENCH_INDEX_SIZES ?? '100,1000,10000').split(',').map(Number);

function market(id: bigint, creator: PublicKey, vault: PublicKey): MarketAccount {
  return {
    marketId: id,
    creator,
    vault,
    resolutionTime: 2_000_000_000n,
    createdAt: 1_700_000_000n,
    resolvedAt: 0n,
    tradeFeeBps: 200,
    mode: 'amm',
    status: 'active',
    winningSide: null,
    mintsInitialized: true,
    bump: 255,
    seedAmount: 100_000_000n,
    yesReserve: 100_000_000n,
    noReserve: 100_000_000n,
    yesSupply: 1_000_000n,
    noSupply: 1_000_000n,
    collateral: 101_000_000n,
    creatorFeesAccrued: 0n,
    creatorFeesClaimed: 0n,
    protocolFeesAccrued: 0n,
    protocolFeesClaimed: 0n,
    totalVolume: 0n,
    title: `Bench market ${id}`,
    description: 'scaling',
    yesTicker: 'YES',
    noTicker: 'NO',
  };
}

function tokenAccount(mint: PublicKey, owner: PublicKey, amount: bigint): Uint8Array {
  const data = Buffer.alloc(ACCOUNT_SIZE);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount,
      delegateOption: 0,
      delegate: PublicKey.default,
      state: 1,
      isNativeOption: 0,
      isNative: 0n,
      delegatedAmount: 0n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}

const HEALTH_GOAL_MS = 50;

export async function run(): Promise<void> {
  const app = Fastify({ logger: false });
  const startedAt = new Date().toISOString();
  app.get('/health', async () => ({ status: 'ok', version: 'bench', startedAt, uptimeSeconds: Math.round(process.uptime()) }));
  const healthUrl = `${await app.listen({ host: '127.0.0.1', port: 0 })}/health`;
  try {
    for (const n of SIZES) await size(n, healthUrl);
  } finally {
    await app.close();
  }
}

async function size(n: number, healthUrl: string): Promise<void> {
  // The market program registered, as the daemon runs it (its accounts are then indexed).
  const ledger = await EmbeddedLedger.open({ programs: [createMarketProgramHandler()] });
  const db = await sqliteDatabase();
  try {
    const creator = Keypair.generate().publicKey;
    const holder = Keypair.generate().publicKey;
    const other = Keypair.generate().publicKey; // a mint that is not ours: USDC-like noise
    for (let i = 1; i <= n; i++) {
      const id = BigInt(i);
      ledger.setAccount(findMarketPda(id)[0].toBase58(), {
        owner: MARKET_PROGRAM_ID.toBase58(),
        lamports: 10_000_000n,
        data: encodeMarketAccount(market(id, creator, creator)),
      });
      for (const mint of [findYesMintPda(id)[0], findNoMintPda(id)[0], other]) {
        ledger.setAccount(Keypair.generate().publicKey.toBase58(), {
          owner: TOKEN_PROGRAM_ID.toBase58(),
          lamports: 2_039_280n,
          data: tokenAccount(mint, holder, 1_000_000n),
        });
      }
    }
    const ctx = {
      db: db.db,
      chain: new EmbeddedChainClient(ledger),
      programId: MARKET_PROGRAM_ID,
      usdcMint: creator,
      log: pino({ level: 'silent' }),
    };
    // The same probe for a second with nothing running: what this machine gives /health anyway.
    const idleProbe = await startLatencyProbe(healthUrl);
    await new Promise((r) => setTimeout(r, 1_000));
    const idle = await idleProbe.stop();
    const probe = await startLatencyProbe(healthUrl);
    await new Promise((r) => setTimeout(r, 20)); // the probe's first connections open
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const started = performance.now();
    const result = await fullIndexPass(ctx);
    const ms = performance.now() - started;
    delay.disable();
    const health = await probe.stop();
    console.log(
      `  ${String(n).padStart(6)} markets: pass ${ms.toFixed(0).padStart(6)} ms (${(ms / n).toFixed(2)} ms/market, ${result.tokenAccounts} token accounts); ` +
        `/health during the pass p50 ${health.p50.toFixed(1)} ms, p99 ${health.p99.toFixed(1)} ms, max ${health.max.toFixed(1)} ms over ${health.n} probes ` +
        `(p99 ${(health.p99 / HEALTH_GOAL_MS).toFixed(2)}x the ${HEALTH_GOAL_MS} ms goal${health.p99 < HEALTH_GOAL_MS ? ', met' : ', NOT met'}); ` +
        `event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms; /health idle p99 ${idle.p99.toFixed(1)} ms`,
    );
    if (health.errors > 0) throw new Error(`${health.errors} /health probes failed`);
  } finally {
    await db.close();
    await ledger.close();
  }
}
