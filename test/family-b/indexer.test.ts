/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test, read loosely */
/**
 * Family B's index against the real ledger and the daemon's own workers: rows appear through the
 * notification path with their slot, two changes in one slot both reach the index, an older slot
 * never overwrites a newer row, and the full pass rebuilds everything from scratch in an empty
 * database and removes token accounts closed on chain.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloseAccountInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, Transaction, type Keypair } from '@solana/web3.js';
import { pino } from 'pino';
import { findChainMarket, upsertChainMarket } from '../../db/repositories/chain-markets.repository.js';
import { upsertTokenAccounts } from '../../db/repositories/token-accounts.repository.js';
import type { FamilyBContext } from '../../src/services/family-b/context.js';
import { fullIndexPass } from '../../src/services/family-b/market-index.service.js';
import { sqliteDatabase } from '../helpers/databases.js';
import { waitForQueuesDrained } from '../helpers/queues.js';
import { buy, createMarket, fundedWallet, get, openHarness, post, tokenBalance, USDC, waitFor, type BHarness } from './family-b.harness.js';

let h: BHarness;
let creator: Keypair, alice: Keypair, bob: Keypair;
let id: number;
let yesMint: string, noMint: string;
const ctxFor = (db: FamilyBContext['db']): FamilyBContext => ({
  db,
  chain: h.daemon.chain.client,
  programId: h.daemon.chain.programs.market,
  usdcMint: h.usdcMint,
  log: pino({ level: 'silent' }),
});
const rowOf = async (db: FamilyBContext['db'], address: string) =>
  db.selectFrom('token_accounts').selectAll().where('address', '=', address).executeTakeFirst();
const amountOf = (r: { amount: unknown } | undefined) => (r ? BigInt(r.amount as bigint) : undefined);
const txOf = async (res: Promise<{ statusCode: number; body: string; json(): any }>): Promise<string> => {
  const r = await res;
  if (r.statusCode !== 200) throw new Error(`${r.statusCode} ${r.body}`);
  return r.json().data.transaction as string;
};
const ata = (mint: string, owner: Keypair) => getAssociatedTokenAddressSync(new PublicKey(mint), owner.publicKey, true).toBase58();

beforeAll(async () => {
  h = await openHarness({ INDEX_INTERVAL_MS: '3600000' }); // the full pass runs once at start (empty), then only when called
  [creator, alice, bob] = await Promise.all([fundedWallet(h), fundedWallet(h), fundedWallet(h)]);
  id = await createMarket(h, creator);
  ({ yesMint, noMint } = (await get(h, `/v2/markets/${id}`)).json().data);
});
afterAll(async () => h?.close());

describe('notification path', () => {
  it('a confirmed buy shows up as a token-account row with its slot', async () => {
    const slotBefore = h.ledger.slot;
    await buy(h, id, alice, 'UP', 3 * USDC);
    const chainAmount = await tokenBalance(h, yesMint, alice.publicKey);
    const row = await waitFor(
      'alice YES row',
      async () => {
        const r = await rowOf(h.daemon.db.db, ata(yesMint, alice));
        return amountOf(r) === chainAmount ? r : undefined;
      },
      2_000,
    );
    expect(row).toMatchObject({ mint: yesMint, owner: alice.publicKey.toBase58() });
    expect(Number(row.slot)).toBeGreaterThanOrEqual(slotBefore);
  });

  it('a buy and a sell landing in the same slot both reach the index (the last state wins)', async () => {
    await buy(h, id, bob, 'DOWN', 2 * USDC); // supply to sell from
    for (let attempt = 0; attempt < 3; attempt++) {
      const w = bob.publicKey.toBase58();
      const txs = [
        await txOf(post(h, `/v2/markets/${id}/buy`, { wallet: w, side: 'DOWN', amount: USDC })),
        await txOf(post(h, `/v2/markets/${id}/sell`, { wallet: w, side: 'DOWN', amount: 1 * USDC, slippageBps: 5000 })),
      ];
      const slots: Array<number | null> = [];
      for (const base64 of txs) {
        const tx = Transaction.from(Buffer.from(base64, 'base64'));
        tx.sign(bob);
        const result = await h.ledger.sendRawTransaction(tx.serialize(), { preflight: true });
        expect(result.err).toBeNull();
        slots.push(result.slot);
      }
      const chainAmount = await tokenBalance(h, noMint, bob.publicKey);
      await waitFor(
        'bob NO row = chain',
        async () => (amountOf(await rowOf(h.daemon.db.db, ata(noMint, bob))) === chainAmount ? true : undefined),
        3_000,
      );
      await waitForQueuesDrained([h.daemon.queues.get('index')]); // every index job has run: no late one may roll it back
      expect(BigInt((await rowOf(h.daemon.db.db, ata(noMint, bob)))!.amount)).toBe(chainAmount);
      if (slots[0] === slots[1]) return;
    }
    throw new Error('could not land two transactions in one slot in three attempts');
  });
});

describe('slot guards', () => {
  it('an older-slot token-account upsert never overwrites a newer row; a newer one does', async () => {
    const address = ata(yesMint, alice);
    const current = (await rowOf(h.daemon.db.db, address))!;
    const stale = { address, mint: yesMint, owner: alice.publicKey.toBase58(), amount: 1n, slot: BigInt(current.slot) - 1n };
    await upsertTokenAccounts(h.daemon.db.db, [stale]);
    const kept = (await rowOf(h.daemon.db.db, address))!;
    expect([BigInt(kept.amount), BigInt(kept.slot)]).toEqual([BigInt(current.amount), BigInt(current.slot)]);
    const db = (await sqliteDatabase()).db;
    await upsertTokenAccounts(db, [{ ...stale, slot: 10n }]);
    await upsertTokenAccounts(db, [{ ...stale, amount: 2n, slot: 11n }]);
    await upsertTokenAccounts(db, [{ ...stale, amount: 3n, slot: 10n }]);
    const row = (await rowOf(db, address))!;
    expect([BigInt(row.amount), BigInt(row.slot)]).toEqual([2n, 11n]);
  });

  it('an older-slot market upsert never overwrites a newer market row', async () => {
    const row = (await findChainMarket(h.daemon.db.db, BigInt(id)))!;
    await upsertChainMarket(h.daemon.db.db, { ...row, status: 'resolved', data: Buffer.alloc(row.data.length), slot: row.slot - 1n });
    const after = (await findChainMarket(h.daemon.db.db, BigInt(id)))!;
    expect(after.status).toBe('active');
    expect(after.data.equals(row.data)).toBe(true);
  });
});

describe('full pass', () => {
  it('rebuilds markets and token accounts from scratch in an empty database, equal to the live index', async () => {
    const empty = await sqliteDatabase();
    const result = await fullIndexPass(ctxFor(empty.db));
    expect(result).toEqual({ markets: 1, tokenAccounts: 2 });
    const project = async (db: FamilyBContext['db']) =>
      (await db.selectFrom('token_accounts').select(['address', 'mint', 'owner', 'amount']).orderBy('address').execute()).map((r) => ({
        ...r,
        amount: BigInt(r.amount),
      }));
    expect(await project(empty.db)).toEqual(await project(h.daemon.db.db));
    const market = (await findChainMarket(empty.db, BigInt(id)))!;
    expect(market.data.equals((await findChainMarket(h.daemon.db.db, BigInt(id)))!.data)).toBe(true);
    await empty.close();
  });

  it('removes a token account closed on chain', async () => {
    const address = ata(noMint, bob);
    const held = await tokenBalance(h, noMint, bob.publicKey);
    await txOf(post(h, `/v2/markets/${id}/sell`, { wallet: bob.publicKey.toBase58(), side: 'NO', amount: Number(held) })).then(
      async (base64) => {
        const tx = Transaction.from(Buffer.from(base64, 'base64'));
        tx.sign(bob);
        expect((await h.ledger.sendRawTransaction(tx.serialize(), { preflight: true })).err).toBeNull();
      },
    );
    await h.ledger.sendInstructions(
      [
        createCloseAccountInstruction(
          getAssociatedTokenAddressSync(new PublicKey(noMint), bob.publicKey, true),
          bob.publicKey,
          bob.publicKey,
        ),
      ],
      [bob],
    );
    expect(await h.daemon.chain.client.getAccount(address)).toBeNull();
    // The notification path re-reads the account, finds it closed and drops the row.
    await waitFor(
      'row of the closed account gone',
      async () => ((await rowOf(h.daemon.db.db, address)) === undefined ? true : undefined),
      2_000,
    );
    // A missed notification: the index still holds the account as it was before the close.
    const slot = BigInt(h.ledger.slot);
    await upsertTokenAccounts(h.daemon.db.db, [{ address, mint: noMint, owner: bob.publicKey.toBase58(), amount: 0n, slot }]);
    h.ledger.advanceSlots(1);
    await fullIndexPass(ctxFor(h.daemon.db.db));
    expect(await rowOf(h.daemon.db.db, address)).toBeUndefined();
    expect(await rowOf(h.daemon.db.db, ata(yesMint, alice))).toBeDefined();
  });
});
