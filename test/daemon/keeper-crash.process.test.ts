/**
 * The settlement keeper killed (`kill -9`, the whole daemon) at random points of settlement:
 * while fills are matched, batched, sent and confirmed. After the last restart every fill ends
 * settled, each with its one receipt on chain, and the smart wallets and the fee wallet hold
 * exactly what the fills say — a fill settled twice or lost would show in these balances. On
 * SQLite and, when the machine's server answers, on PostgreSQL (a schema of its own): the keeper's
 * statements differ between the two (db/repositories/clob-settlement.repository.ts).
 */
import { PublicKey, type Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findFillReceiptPda } from '@pmx/programs';
import { ClobClient } from '../helpers/clob-client.js';
import { PG_AVAILABLE, postgresSchema, tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { startReadyDaemon, type DaemonProcess } from './daemon-process.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ADMIN = 'keeper-crash-admin-token-0123456789';
const USDC = 1_000_000n;
const ROUNDS = 4;
const PAIRS_PER_ROUND = 6;

const DATABASES = [
  { name: 'sqlite', available: true },
  { name: 'postgres', available: PG_AVAILABLE },
];

describe.each(DATABASES)('settlement keeper crash (kill -9 during settlement) on $name', ({ name, available }) => {
  const prefix = uniquePrefix('keeper-crash');
  const dataDir = tempDir('pmx-keeper-crash-');
  let daemon: DaemonProcess;
  let schema: Awaited<ReturnType<typeof postgresSchema>> | undefined;
  const start = async (): Promise<ClobClient> => {
    daemon = await startReadyDaemon(
      dataDir,
      {
        ...(schema ? { DATABASE_URL: schema.url } : {}),
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
        ADMIN_TOKEN: ADMIN,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_WRITE_PER_MIN: '1000000',
        RATE_LIMIT_READ_PER_MIN: '1000000',
        CLOB_SETTLE_SWEEP_INTERVAL_MS: '500',
        OUTBOUND_RESUME_INTERVAL_MS: '1000',
      },
      '/v2/config',
      60_000,
    ); // a limit for a loaded machine, not a target
    return new ClobClient(daemon.url, ADMIN);
  };
  beforeAll(async () => {
    if (!available) return;
    if (name === 'postgres') schema = await postgresSchema();
    await start();
  }, 120_000);
  afterAll(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGKILL');
      await daemon.exited;
    }
    await deleteKeys(prefix);
    await schema?.drop();
  });

  it.skipIf(!available)(
    'settles every fill exactly once across four crashes',
    async () => {
      let client = new ClobClient(daemon.url, ADMIN);
      const config = (await client.ok('GET', '/v2/config')).data as Json;
      const market = await client.createMarket('Keeper crash market');
      const maker: Keypair = await client.fundedTrader(100n * USDC);
      const taker: Keypair = await client.fundedTrader(100n * USDC);
      await client.write(
        '/v2/clob/account/split',
        { pubkey: maker.publicKey.toBase58(), marketId: market.id, amount: (30n * USDC).toString() },
        maker,
      );
      await client.waitFor('split indexed', async () =>
        (await client.balances(maker)).markets[0]?.yesTokens === '30000000' ? true : undefined,
      );
      const feeWallet = new PublicKey(config.protocolFeeWallet as string);
      const usdcMint = new PublicKey(config.usdcMint as string);
      const feeBalance = async (c: ClobClient) => {
        const accounts = (await (await c.rpc()).getParsedTokenAccountsByOwner(feeWallet, { mint: usdcMint })).value;
        return accounts.reduce((s, a) => s + BigInt((a.account.data as Json).parsed.info.tokenAmount.amount as string), 0n);
      };
      const fee0 = await feeBalance(client);

      let seed = 11;
      const rand = (n: number) => {
        seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
        return seed % n;
      };
      const fillIds: string[] = [];
      const atKill: Array<Record<string, number>> = [];
      for (let round = 0; round < ROUNDS; round++) {
        for (let i = 0; i < PAIRS_PER_ROUND; i++) {
          const rest = await client.place(maker, {
            market: market.marketPubkey,
            side: 'sell',
            outcome: 'yes',
            priceBps: 4000 + rand(20) * 100,
            quantity: 1n * USDC,
          });
          expect(rest.status, JSON.stringify(rest.json)).toBe(200);
        }
        // One taker sweeps them all: the round's fills are matched together and settle together.
        const take = await client.place(taker, {
          market: market.marketPubkey,
          side: 'buy',
          outcome: 'yes',
          priceBps: 9000,
          quantity: BigInt(PAIRS_PER_ROUND) * USDC,
          timeInForce: 'ioc',
        });
        expect(take.status, JSON.stringify(take.json)).toBe(200);
        fillIds.push(...(take.json.fills as Json[]).map((f) => f.id as string));
        // A random point of settlement: from "just matched" to "some batches sent or confirmed".
        await new Promise((r) => setTimeout(r, rand(300)));
        const statuses = await Promise.all(
          fillIds.map(async (id) => (await client.ok('GET', `/v2/clob/fills/${id}`)).fill.status as string),
        );
        daemon.child.kill('SIGKILL');
        const counts: Record<string, number> = {};
        for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
        atKill.push(counts);
        console.log(`round ${round}: killed with fills ${JSON.stringify(counts)}`);
        await daemon.exited;
        client = await start();
      }
      expect(fillIds).toHaveLength(ROUNDS * PAIRS_PER_ROUND);
      // The kills did land mid-settlement: some fill was still unsettled at some kill.
      expect(atKill.some((c) => (c.settled ?? 0) < Object.values(c).reduce((x, y) => x + y, 0))).toBe(true);

      const fills = await client
        .waitFor(
          'every fill settled after the last restart',
          async () => {
            const rows = await Promise.all(fillIds.map(async (id) => (await client.ok('GET', `/v2/clob/fills/${id}`)).fill as Json));
            return rows.every((f) => f.status === 'settled') ? rows : undefined;
            // The worst case after the last kill: a batch sent but not landed waits for its blockhash to
            // expire (150 slots, 60 s) before it is checked and rebuilt, on a loaded machine.
          },
          150_000,
        )
        .catch(async (error: Error) => {
          const rows = await Promise.all(fillIds.map(async (id) => (await client.ok('GET', `/v2/clob/fills/${id}`)).fill as Json));
          throw new Error(`${error.message}: ${JSON.stringify(rows.map((f) => [f.status, f.retryCount, f.failureReason]))}`);
        });

      // One receipt per fill on chain.
      const exchange = new PublicKey(config.programs.exchange as string);
      const receipts = await (await client.rpc()).getMultipleAccountsInfo(fillIds.map((id) => findFillReceiptPda(id, exchange)[0]));
      expect(receipts.every((r) => r !== null)).toBe(true);

      // Balances: exactly the fills' amounts moved, once.
      const paid = fills.reduce((s, f) => s + BigInt(f.usdcAmount) + BigInt(f.takerFee), 0n);
      const received = fills.reduce((s, f) => s + BigInt(f.makerUsdcAmount) + BigInt(f.makerRebate), 0n);
      const protocol = fills.reduce((s, f) => s + BigInt(f.protocolFee), 0n);
      const dust = fills.reduce((s, f) => s + BigInt(f.usdcAmount) - BigInt(f.makerUsdcAmount), 0n);
      const sold = BigInt(fills.length) * USDC;
      const tb = await client
        .waitFor(
          'taker balance indexed',
          async () => {
            const b = await client.balances(taker);
            return b.smartWalletBalance === (100n * USDC - paid).toString() ? b : undefined;
          },
          20_000,
        )
        .catch(async (error: Error) => {
          throw new Error(`${error.message}: taker ${JSON.stringify(await client.balances(taker))}, expected ${100n * USDC - paid}`);
        });
      expect(tb.markets[0].yesTokens).toBe(sold.toString());
      const mb = await client
        .waitFor(
          'maker balance indexed',
          async () => {
            const b = await client.balances(maker);
            return b.smartWalletBalance === (70n * USDC + received).toString() ? b : undefined;
          },
          20_000,
        )
        .catch(async (error: Error) => {
          throw new Error(`${error.message}: maker ${JSON.stringify(await client.balances(maker))}, expected ${70n * USDC + received}`);
        });
      expect(mb.markets[0].yesTokens).toBe((30n * USDC - sold).toString());
      expect((await feeBalance(client)) - fee0).toBe(protocol + dust);
    },
    240_000,
  );
});
