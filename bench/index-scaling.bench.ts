/**
 * Issue 15's scaling bench of the Family B indexer: a full index pass over 100, 1,000 and 10,000
 * markets (each with a YES and a NO token account) laid out directly in an in-memory ledger, and
 * the event loop's delay during the pass — what a request such as /health would wait. A linear
 * pass keeps the time per market flat; the goal for the delay is p99 under 50 ms.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ACCOUNT_SIZE, AccountLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import { pino } from 'pino';
import { EmbeddedChainClient } from '../src/chain/adapters/embedded.adapter.js';
import { EmbeddedLedger } from '../src/chain/embedded/ledger.js';
import { encodeMarketAccount, findMarketPda, findNoMintPda, findYesMintPda, MARKET_PROGRAM_ID, type MarketAccount } from '../src/chain/programs/market/index.js';
import { fullIndexPass } from '../src/services/family-b/market-index.service.js';
import { sqliteDatabase } from '../test/helpers/databases.js';

const SIZES = (process.env.BENCH_INDEX_SIZES ?? '100,1000,10000').split(',').map(Number);

function market(id: bigint, creator: PublicKey, vault: PublicKey): MarketAccount {
  return {
    marketId: id, creator, vault, resolutionTime: 2_000_000_000n, createdAt: 1_700_000_000n, resolvedAt: 0n, tradeFeeBps: 200,
    mode: 'amm', status: 'active', winningSide: null, mintsInitialized: true, bump: 255, seedAmount: 100_000_000n,
    yesReserve: 100_000_000n, noReserve: 100_000_000n, yesSupply: 1_000_000n, noSupply: 1_000_000n, collateral: 101_000_000n,
    creatorFeesAccrued: 0n, creatorFeesClaimed: 0n, protocolFeesAccrued: 0n, protocolFeesClaimed: 0n, totalVolume: 0n,
    title: `Bench market ${id}`, description: 'scaling', yesTicker: 'YES', noTicker: 'NO',
  };
}

function tokenAccount(mint: PublicKey, owner: PublicKey, amount: bigint): Uint8Array {
  const data = Buffer.alloc(ACCOUNT_SIZE);
  AccountLayout.encode({ mint, owner, amount, delegateOption: 0, delegate: PublicKey.default, state: 1, isNativeOption: 0, isNative: 0n, delegatedAmount: 0n, closeAuthorityOption: 0, closeAuthority: PublicKey.default }, data);
  return data;
}

export async function run(): Promise<void> {
  for (const n of SIZES) {
    const ledger = await EmbeddedLedger.open({ programs: [] });
    const db = await sqliteDatabase();
    try {
      const creator = Keypair.generate().publicKey;
      const holder = Keypair.generate().publicKey;
      for (let i = 1; i <= n; i++) {
        const id = BigInt(i);
        ledger.setAccount(findMarketPda(id)[0].toBase58(), { owner: MARKET_PROGRAM_ID.toBase58(), lamports: 10_000_000n, data: encodeMarketAccount(market(id, creator, creator)) });
        for (const mint of [findYesMintPda(id)[0], findNoMintPda(id)[0]]) {
          ledger.setAccount(Keypair.generate().publicKey.toBase58(), { owner: TOKEN_PROGRAM_ID.toBase58(), lamports: 2_039_280n, data: tokenAccount(mint, holder, 1_000_000n) });
        }
      }
      const ctx = { db: db.db, chain: new EmbeddedChainClient(ledger), programId: MARKET_PROGRAM_ID, usdcMint: creator, log: pino({ level: 'silent' }) };
      const delay = monitorEventLoopDelay({ resolution: 5 });
      delay.enable();
      const started = performance.now();
      const result = await fullIndexPass(ctx);
      const ms = performance.now() - started;
      delay.disable();
      console.log(
        `  ${String(n).padStart(6)} markets: pass ${ms.toFixed(0).padStart(6)} ms (${(ms / n).toFixed(2)} ms/market, ${result.tokenAccounts} token accounts); ` +
          `event-loop delay p99 ${(delay.percentile(99) / 1e6).toFixed(1)} ms, max ${(delay.max / 1e6).toFixed(1)} ms (goal p99 < 50 ms)`,
      );
    } finally {
      await db.close();
      await ledger.close();
    }
  }
}
