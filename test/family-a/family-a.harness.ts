/**
 * A real Family A stack for tests: the embedded ledger (LiteSVM), the embedded ChainClient, a
 * migrated SQLite (or given) database, real Redis queues and BullMQ workers running the feature's
 * processors, and the Fastify app with the feature's routes. Users pay with real signed SPL
 * transfers submitted to the ledger.
 */
import {
  createTransferCheckedInstruction,
  getAssociatedTokenAddressSync,
  createAssociatedTokenAccountIdempotentInstruction,
} from '@solana/spl-token';
import { randomBytes } from 'node:crypto';
import { Keypair, PublicKey, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import type { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { createMetrics } from '../../src/infra/metrics.js';
import { loadConfig } from '../../config/config.js';
import type { DatabaseHandle } from '../../db/database.js';
import { startWorkers } from '../../jobs/workers.js';
import { EmbeddedChainClient } from '../../src/chain/adapters/embedded.adapter.js';
import { embeddedDevFaucet } from '../../src/chain/dev-faucet.js';
import { EmbeddedLedger } from '@pmx/local-cluster';
import { consoleFeature } from '../../src/features/console.feature.js';
import { familyAFeature, familyASettings } from '../../src/features/family-a.feature.js';
import type { FamilyADeps } from '../../src/services/family-a/family-a.deps.js';
import { FamilyAKeys } from '../../src/services/family-a/family-a.keys.js';
import { outboundJobId } from '../../src/services/outbound/outbound-intents.js';
import { outboundFeature } from '../../src/features/outbound.feature.js';
import type { Feature, FeatureContext } from '../../src/features/feature.js';
import { createTestApp, TEST_ADMIN_TOKEN, type TestApp } from '../helpers/app.js';
import { sqliteDatabase, tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { JobQueues } from '../../jobs/queues.js';

export interface Harness {
  ledger: EmbeddedLedger;
  client: EmbeddedChainClient;
  t: TestApp;
  feature: Feature;
  ctx: FeatureContext;
  usdcMint: string;
  dataDir: string;
  startWorkers(): void;
  stopWorkers(): Promise<void>;
  close(): Promise<void>;
}

export async function createHarness(
  opts: { db?: DatabaseHandle; workers?: boolean; env?: Record<string, string>; readPerMinute?: number; writePerMinute?: number } = {},
): Promise<Harness> {
  const dataDir = tempDir('pmx-family-a-');
  const ledger = await EmbeddedLedger.open({});
  const client = new EmbeddedChainClient(ledger);
  const db = opts.db ?? (await sqliteDatabase());
  const log = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const config = loadConfig({ DATA_DIR: dataDir, FAMILY_A_DELIVERY_WAIT_MS: '15000', ...opts.env });
  const platform = ledger.platformKeypairs();
  // The feature's own queues (own prefix); the app's queues only feed its dashboard.
  const prefix = uniquePrefix('family-a');
  const producer = new Redis(TEST_REDIS_URL);
  const queues = new JobQueues(producer, prefix);
  const ctx: FeatureContext = {
    config,
    log,
    db: db.db,
    dialect: db.dialect,
    queues,
    adminToken: TEST_ADMIN_TOKEN,
    instanceId: `family-a-test-${prefix}`,
    metrics: createMetrics(),
    redis: () => {
      throw new Error('the Family A harness opens no Redis connections for features');
    },
    chain: {
      client,
      cluster: 'embedded',
      rpcUrl: '',
      usdcMint: new PublicKey(ledger.bootstrapInfo.usdcMint),
      wallets: { treasury: platform.treasury, exchangeOperator: platform.exchangeOperator, protocolFee: platform.protocolFee },
      programs: { market: PublicKey.default },
      ledger,
      devFaucet: embeddedDevFaucet(ledger),
    },
  };
  const feature = await familyAFeature(ctx);
  const outbound = outboundFeature(ctx, [feature]);
  // The console's routes too: /admin/money (Family A's money beside the solvency checks) is the console's.
  const operatorConsole = await consoleFeature(ctx);
  const t = await createTestApp({
    db,
    routes: [...(feature.routes ?? []), ...(operatorConsole.routes ?? [])],
    readPerMinute: opts.readPerMinute,
    writePerMinute: opts.writePerMinute,
  });
  let workers: Worker[] = [];
  const connection = new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  const h: Harness = {
    ledger,
    client,
    t,
    feature,
    ctx,
    usdcMint: ledger.bootstrapInfo.usdcMint,
    dataDir,
    startWorkers() {
      workers = startWorkers({
        connection,
        prefix,
        processors: { ...feature.processors, ...outbound.processors },
        log,
        concurrency: { platform: 4 },
      });
    },
    async stopWorkers() {
      await Promise.all(workers.map((w) => w.close()));
      workers = [];
    },
    async close() {
      await h.stopWorkers();
      connection.disconnect();
      await queues.close();
      producer.disconnect();
      await t.close();
      await deleteKeys(prefix);
      if (!opts.db) await db.close();
      await ledger.close();
    },
  };
  if (opts.workers !== false) {
    h.startWorkers();
    await feature.schedules?.();
    await outbound.schedules?.();
  }
  return h;
}

const MEMO = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

export async function send(ledger: EmbeddedLedger, payer: Keypair, instructions: TransactionInstruction[]): Promise<string> {
  const { blockhash } = ledger.getLatestBlockhash();
  // A random memo keeps two identical transfers in one slot from being one duplicate transaction.
  const memo = new TransactionInstruction({ programId: MEMO, keys: [], data: Buffer.from(randomBytes(8).toString('hex')) });
  const msg = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: blockhash,
    instructions: [...instructions, memo],
  }).compileToV0Message();
  const tx = new VersionedTransaction(msg);
  tx.sign([payer]);
  return (await ledger.sendRawTransaction(tx.serialize(), { preflight: true })).signature;
}

export async function fundedUser(h: Harness, usdcRaw = 10_000_000_000n): Promise<Keypair> {
  const user = Keypair.generate();
  await h.ledger.airdrop(user.publicKey, 2_000_000_000n);
  if (usdcRaw > 0n) await h.ledger.mintUsdc(user.publicKey, usdcRaw);
  return user;
}

/** A plain SPL transferChecked of `amount` raw units of `mint` from `from`'s ATA to `to`'s ATA. */
export async function transfer(h: Harness, from: Keypair, mint: string, to: string, amount: bigint, createDest = false): Promise<string> {
  const m = new PublicKey(mint);
  const src = getAssociatedTokenAddressSync(m, from.publicKey, true);
  const dest = getAssociatedTokenAddressSync(m, new PublicKey(to), true);
  const ix: TransactionInstruction[] = [];
  if (createDest) ix.push(createAssociatedTokenAccountIdempotentInstruction(from.publicKey, dest, new PublicKey(to), m));
  ix.push(createTransferCheckedInstruction(src, m, dest, from.publicKey, amount, 6));
  return send(h.ledger, from, ix);
}

export async function tokenBalance(h: Harness, owner: string, mint: string): Promise<bigint> {
  const accounts = await h.client.getTokenAccountsByOwner(owner, { mint });
  return accounts.reduce((s, a) => s + a.amount, 0n);
}

export function xPayment(payload: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ x402Version: 1, network: 'solana-localnet', networkId: 'solana-localnet', ...payload })).toString(
    'base64',
  );
}

export const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

export async function createMarket(h: Harness, body: Record<string, unknown> = {}) {
  const res = await h.t.app.inject({
    method: 'POST',
    url: '/v2/admin/markets',
    headers: admin,
    payload: {
      name: `Will it rain ${Math.random().toString(36).slice(2, 8)}`,
      description: 'A test market',
      endDate: '2030-01-01T00:00:00Z',
      ...body,
    },
  });
  if (res.statusCode !== 200) throw new Error(`create failed: ${res.statusCode} ${res.body}`);
  return res.json().data as {
    slug: string;
    status: string;
    cas: { Yes: string; No: string };
    metadata: { option_wallets: { Yes: string; No: string } };
  };
}

/** Family A's services wired to the harness as the feature wires them (for calling services directly). */
export function familyADeps(h: Harness): FamilyADeps {
  return {
    db: h.ctx.db,
    dialect: h.ctx.dialect,
    chain: h.client,
    usdcMint: h.usdcMint,
    treasury: h.ctx.chain.wallets.treasury,
    keys: FamilyAKeys.load(h.ctx.config.keysDir),
    settings: familyASettings(h.ctx),
    log: pino({ level: 'silent' }),
    dispatchOutbound: async (id, attempt) => {
      await h.ctx.queues.enqueue('outbound.send', { outboundId: id }, { jobId: outboundJobId(id, attempt) });
    },
  };
}
