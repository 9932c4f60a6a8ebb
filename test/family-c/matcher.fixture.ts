/**
 * The matcher tests' world (matcher.test.ts, matcher-funds.test.ts): a fresh SQLite database with
 * one active orderbook market per test, funded escrows, orders as the intake accepts them (the
 * signature is not checked past intake), and a matcher for a node.
 */
import { randomUUID } from 'node:crypto';
import { Keypair, PublicKey } from '@solana/web3.js';
import { pino } from 'pino';
import { afterEach, beforeEach } from 'vitest';
import { insertCatalogMarket, insertClobTerms } from '../../db/repositories/clob-markets.repository.js';
import { upsertTokenAccounts } from '../../db/repositories/token-accounts.repository.js';
import type { DatabaseHandle } from '../../db/database.js';
import { EXCHANGE_PROGRAM_ID, findClobMarketPda, findEscrowTokenAddress, findUserEscrowPda } from '@pmx/programs';
import { DEFAULT_FEES, encodeOrderMessage, toHex } from '../../src/domain/orderbook/index.js';
import { Matcher } from '../../src/services/family-c/matcher/matcher.js';
import type { AcceptedOrder } from '../../src/services/family-c/orders/order-intake.js';
import { sqliteDatabase } from '../helpers/databases.js';

export const USDC_MINT = new PublicKey('So11111111111111111111111111111111111111112');
export const log = pino({ level: 'silent' });
export let db: DatabaseHandle;
export let marketId: string;

export async function fund(owner: Keypair, usdc: bigint): Promise<void> {
  const escrow = findUserEscrowPda(owner.publicKey)[0].toBase58();
  await upsertTokenAccounts(db.db, [
    {
      address: findEscrowTokenAddress(owner.publicKey, USDC_MINT).toBase58(),
      mint: USDC_MINT.toBase58(),
      owner: escrow,
      amount: usdc,
      slot: 1n,
    },
  ]);
}

/** YES tokens of the test's market in `owner`'s escrow. */
export async function fundYes(owner: Keypair, amount: bigint): Promise<void> {
  const yesMint = (await db.db.selectFrom('markets').select('yes_mint').where('id', '=', marketId).executeTakeFirstOrThrow()).yes_mint!;
  await upsertTokenAccounts(db.db, [
    {
      address: Keypair.generate().publicKey.toBase58(),
      mint: yesMint,
      owner: findUserEscrowPda(owner.publicKey)[0].toBase58(),
      amount,
      slot: 1n,
    },
  ]);
}

let nonce = 0n;
export function order(
  owner: Keypair,
  side: 'buy' | 'sell',
  priceBps: number,
  quantity: bigint,
  extra: Partial<AcceptedOrder> = {},
): AcceptedOrder {
  nonce += 1n;
  const expiry = Math.floor(Date.now() / 1000) + 3600;
  const message = toHex(
    encodeOrderMessage({
      market: findClobMarketPda(marketId)[0].toBytes(),
      owner: owner.publicKey.toBytes(),
      side,
      outcome: 'yes',
      priceBps,
      quantity,
      nonce,
      expiry: BigInt(expiry),
    }),
  );
  return {
    id: randomUUID(),
    marketId,
    owner: owner.publicKey.toBase58(),
    side,
    outcome: 'yes',
    priceBps,
    quantity: quantity.toString(),
    nonce: nonce.toString(),
    expiry,
    orderType: 'limit',
    timeInForce: 'gtc',
    postOnly: false,
    message,
    signature: Buffer.alloc(64).toString('base64'),
    ...extra,
  };
}

export function matcher(nodeId: string): Matcher {
  return new Matcher({ db: db.db, log, programId: EXCHANGE_PROGRAM_ID, usdcMint: USDC_MINT.toBase58(), fees: DEFAULT_FEES, nodeId });
}

/** An active orderbook market in the catalog; returns its id. */
export async function insertMarket(): Promise<string> {
  const marketId = randomUUID();
  const now = new Date().toISOString();
  await insertCatalogMarket(db.db, {
    id: marketId,
    slug: `m-${marketId.slice(0, 8)}`,
    kind: 'clob',
    name: 'M',
    description: '',
    category: 'c',
    tags: '[]',
    image_urls: '[]',
    status: 'active',
    creator: null,
    yes_ticker: 'YES',
    no_ticker: 'NO',
    yes_mint: Keypair.generate().publicKey.toBase58(),
    no_mint: Keypair.generate().publicKey.toBase58(),
    end_date: now,
    published: 0,
    created_at: now,
    updated_at: now,
  });
  await insertClobTerms(db.db, {
    market_id: marketId,
    market_pubkey: findClobMarketPda(marketId)[0].toBase58(),
    vault: 'v',
    resolution_rules: '',
    image_url: '',
    slot: 0n,
  });
  return marketId;
}

/** A fresh database and market for each test of the calling file. */
export function useMatcherWorld(): void {
  beforeEach(async () => {
    db = await sqliteDatabase();
    marketId = await insertMarket();
  });
  afterEach(async () => db.close());
}
