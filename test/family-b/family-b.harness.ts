/**
 * A real Family B stack in this process, built exactly as the daemon builds it (`startDaemon`):
 * the embedded ledger with the market program, SQLite in a temp DATA_DIR, real Redis queues under
 * a unique prefix, real BullMQ workers (unless `ROLES` leaves them out), the indexer's chain
 * listeners and the Fastify app (requests through `inject`). Users sign the returned transactions
 * with their own keypairs and submit them to the ledger.
 */
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, Transaction } from '@solana/web3.js';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { pino } from 'pino';
import { loadConfig } from '../../config/config.js';
import type { EmbeddedLedger } from '@pmx/local-cluster';
import { startDaemon, type Daemon } from '../../src/daemon.js';
import { confirmMarketText } from '../../src/domain/signed-message.js';
import { tempDir } from '../helpers/databases.js';
import { signTextBase58 } from '../helpers/sign.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

export const USDC = 1_000_000;

export interface BHarness {
  daemon: Daemon;
  app: FastifyInstance;
  ledger: EmbeddedLedger;
  usdcMint: PublicKey;
  prefix: string;
  close(): Promise<void>;
}

export async function openHarness(env: Record<string, string> = {}): Promise<BHarness> {
  const prefix = uniquePrefix('family-b');
  const config = loadConfig({
    DATA_DIR: tempDir('pmx-family-b-'),
    PORT: '0',
    HOST: '127.0.0.1',
    LEDGER_RPC_PORT: '0',
    REDIS_URL: TEST_REDIS_URL,
    QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_READ_PER_MIN: '1000000',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    ...env,
  });
  const daemon = await startDaemon(config, pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }));
  return {
    daemon,
    app: daemon.app!,
    ledger: daemon.chain.ledger!,
    usdcMint: daemon.chain.usdcMint,
    prefix,
    async close() {
      await daemon.stop();
      await deleteKeys(prefix);
    },
  };
}

export async function fundedWallet(h: BHarness, usdcRaw = 10_000 * USDC): Promise<Keypair> {
  const wallet = Keypair.generate();
  await h.ledger.airdrop(wallet.publicKey, 2_000_000_000n);
  if (usdcRaw > 0) await h.ledger.mintUsdc(wallet.publicKey, BigInt(usdcRaw));
  return wallet;
}

export async function post(h: BHarness, url: string, payload: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return h.app.inject({ method: 'POST', url, payload });
}

export async function get(h: BHarness, url: string): Promise<LightMyRequestResponse> {
  return h.app.inject({ method: 'GET', url });
}

/** Signs the API's base64 transaction as `signer` and lands it; throws when it fails on chain. */
export async function signAndSend(h: BHarness, base64: string, signer: Keypair): Promise<string> {
  const tx = Transaction.from(Buffer.from(base64, 'base64'));
  tx.sign(signer);
  const result = await h.ledger.sendRawTransaction(tx.serialize(), { preflight: true });
  if (result.err !== null) throw new Error(`transaction failed: ${JSON.stringify(result.err)}`);
  return result.signature;
}

/** POSTs a write endpoint, expects 200 with a transaction, signs and lands it. */
export async function write(h: BHarness, url: string, payload: Record<string, unknown>, signer: Keypair): Promise<Record<string, unknown>> {
  const res = await post(h, url, payload);
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  const data = res.json().data as Record<string, unknown> & { transaction: string };
  await signAndSend(h, data.transaction, signer);
  return data;
}

export interface CreateOptions {
  seedAmount?: number;
  resolutionTime?: number;
  yesTicker?: string;
  noTicker?: string;
  tradeFeeBps?: number;
}

export function createBody(creator: Keypair, o: CreateOptions = {}): Record<string, unknown> {
  return {
    wallet: creator.publicKey.toBase58(),
    title: 'Will BTC close above 100k?',
    description: 'Resolves YES if BTC/USD closes above 100000 on the resolution date.',
    yesTicker: o.yesTicker ?? 'UP',
    noTicker: o.noTicker ?? 'DOWN',
    resolutionTime: o.resolutionTime ?? Math.floor(Date.now() / 1000) + 3600,
    seedAmount: o.seedAmount ?? 100 * USDC,
    tradeFeeBps: o.tradeFeeBps ?? 200,
  };
}

/** Creates a market and initialises its mints through the API; returns its id. */
export async function createMarket(h: BHarness, creator: Keypair, o: CreateOptions = {}): Promise<number> {
  const data = await write(h, '/v2/markets/create', createBody(creator, o), creator);
  const marketId = data.marketId as number;
  await write(h, `/v2/markets/${marketId}/init-mints`, { wallet: creator.publicKey.toBase58() }, creator);
  return marketId;
}

export async function buy(h: BHarness, marketId: number, trader: Keypair, side: string, amount: number): Promise<Record<string, unknown>> {
  return write(h, `/v2/markets/${marketId}/buy`, { wallet: trader.publicKey.toBase58(), side, amount }, trader);
}

export async function tokenBalance(h: BHarness, mint: string | PublicKey, owner: PublicKey): Promise<bigint> {
  const ata = getAssociatedTokenAddressSync(new PublicKey(mint), owner, true);
  const accounts = await h.daemon.chain.client.getTokenAccountsByOwner(owner.toBase58(), { mint: new PublicKey(mint).toBase58() });
  return accounts.filter((a) => a.address === ata.toBase58()).reduce((s, a) => s + a.amount, 0n);
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** The creator's proof for POST /v2/markets/confirm, as a wallet signs it. */
export function confirmProof(
  signer: Keypair,
  marketId: number,
  timestamp = Math.floor(Date.now() / 1000),
): { timestamp: number; signature: string } {
  return { timestamp, signature: signTextBase58(signer, confirmMarketText(marketId, timestamp)) };
}
