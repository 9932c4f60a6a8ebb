/**
 * What one matcher batch costs the process, without HTTP: a Matcher on a real database with its
 * event publisher on Redis, fed batches of `size` orders (a buy and a sell of one size at one
 * price, alternating, so every other order fills the one before and the book stays small), each
 * batch awaited before the next. Prints CPU µs per order (process.cpuUsage: user + system, every
 * thread): at one order per batch, the fixed cost of a batch (its statements, its commit, its
 * publish) that the clob-batch bench's small batches pay. Not a bench of its own (no floor): an
 * A/B tool for the matcher's side, steadier than the HTTP benches on a shared machine.
 * `BENCH_CLOB_DB=postgres` for PostgreSQL (owners locked per batch, as the daemon does there).
 *
 *   npx tsx --conditions=pmx-source bench/matcher-batch-cost.ts [sizes=1,20] [orders=4000] [rounds=3]
 */
import { randomUUID } from 'node:crypto';
import { Keypair, PublicKey } from '@solana/web3.js';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { insertCatalogMarket, insertClobTerms } from '../db/repositories/clob-markets.repository.js';
import { upsertTokenAccounts } from '../db/repositories/token-accounts.repository.js';
import { EXCHANGE_PROGRAM_ID, findClobMarketPda, findEscrowTokenAddress, findUserEscrowPda } from '@pmx/programs';
import { DEFAULT_FEES, encodeOrderMessage, toHex } from '../src/domain/orderbook/index.js';
import { ClobEventBus } from '../src/services/family-c/events/event-bus.js';
import { MatcherEventPublisher } from '../src/services/family-c/events/matcher-events.publisher.js';
import { Matcher } from '../src/services/family-c/matcher/matcher.js';
import type { AcceptedOrder } from '../src/services/family-c/orders/order-intake.js';
import { postgresDatabase, sqliteDatabase } from '../test/helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../test/helpers/redis.js';

const [sizesArg = '1,20', ordersArg = '4000', roundsArg = '3'] = process.argv.slice(2);
const postgres = process.env.BENCH_CLOB_DB === 'postgres';
const db = postgres ? await postgresDatabase() : await sqliteDatabase();
const usdcMint = new PublicKey('So11111111111111111111111111111111111111112');
const marketId = randomUUID();
const yesMint = Keypair.generate().publicKey.toBase58();
const now = new Date().toISOString();
await insertCatalogMarket(db.db, {
  ...{ id: marketId, slug: `m-${marketId.slice(0, 8)}`, kind: 'clob', name: 'M', description: '', category: 'c' },
  ...{ tags: '[]', image_urls: '[]', status: 'active', creator: null, yes_ticker: 'YES', no_ticker: 'NO' },
  ...{ yes_mint: yesMint, no_mint: Keypair.generate().publicKey.toBase58(), end_date: now, published: 0 },
  ...{ created_at: now, updated_at: now },
});
await insertClobTerms(db.db, {
  ...{ market_id: marketId, market_pubkey: findClobMarketPda(marketId)[0].toBase58(), vault: 'v' },
  ...{ resolution_rules: '', image_url: '', slot: 0n },
});
const buyer = Keypair.generate();
const seller = Keypair.generate();
const account = (owner: Keypair, mint: PublicKey) => ({
  address: findEscrowTokenAddress(owner.publicKey, mint).toBase58(),
  mint: mint.toBase58(),
  owner: findUserEscrowPda(owner.publicKey)[0].toBase58(),
  amount: 10n ** 18n,
  slot: 1n,
});
await upsertTokenAccounts(db.db, [account(buyer, usdcMint), account(seller, new PublicKey(yesMint))]);

const prefix = uniquePrefix('matcher-cost');
const redis = new Redis(TEST_REDIS_URL);
const log = pino({ level: 'silent' });
const matcher = new Matcher({
  db: db.db,
  log,
  programId: EXCHANGE_PROGRAM_ID,
  usdcMint: usdcMint.toBase58(),
  fees: DEFAULT_FEES,
  nodeId: 'bench',
  lockOwners: postgres,
  events: new MatcherEventPublisher(new ClobEventBus(redis, prefix, log), log, () => {}),
});
await matcher.own(marketId);

let nonce = 0n;
const expiry = Math.floor(Date.now() / 1000) + 3600;
function order(i: number): AcceptedOrder {
  const owner = i % 2 === 0 ? buyer : seller;
  const side = i % 2 === 0 ? 'buy' : 'sell';
  nonce += 1n;
  const quantity = 1_000_000n;
  const message = toHex(
    encodeOrderMessage({
      ...{ market: findClobMarketPda(marketId)[0].toBytes(), owner: owner.publicKey.toBytes(), side, outcome: 'yes' },
      ...{ priceBps: 5000, quantity, nonce, expiry: BigInt(expiry) },
    }),
  );
  return {
    ...{ id: randomUUID(), marketId, owner: owner.publicKey.toBase58(), side, outcome: 'yes', priceBps: 5000 },
    ...{ quantity: quantity.toString(), nonce: nonce.toString(), expiry, orderType: 'limit', timeInForce: 'gtc' },
    ...{ postOnly: false, message, signature: Buffer.alloc(64, 1).toString('base64') },
  };
}

/** CPU µs per order over `orders` orders in batches of `size`. */
async function run(size: number, orders: number): Promise<number> {
  const bodies = Array.from({ length: orders }, (_, i) => order(i));
  const cpu = process.cpuUsage();
  for (let i = 0; i < orders; i += size) {
    const batch = bodies.slice(i, i + size);
    if (size === 1) await matcher.submit({ kind: 'place', order: batch[0]! });
    else await matcher.submit({ kind: 'placeMany', marketId, orders: batch });
  }
  await matcher.idle();
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / orders;
}

const sizes = sizesArg.split(',').map(Number);
await run(1, 400); // warm-up: compiled statements, JIT
for (let round = 0; round < Number(roundsArg); round++) {
  for (const size of sizes) {
    const us = await run(size, Number(ordersArg));
    console.log(`${postgres ? 'postgres' : 'sqlite'} batches of ${size}: ${us.toFixed(0)} µs/order`);
  }
}
await matcher.idle();
await deleteKeys(prefix);
redis.disconnect();
await db.close();
