/**
 * The indexer subscribes only to what is ours (issue 10 item 3): the market program, and per
 * outcome mint one Token-program subscription filtered on that mint (dataSize 165 + memcmp at
 * offset 0), added when a market appears. Run on the daemon's real embedded chain client, wrapped
 * to record every subscription and every notification it delivers: no subscription covers the
 * whole Token program, and no notification of a foreign mint (USDC) is ever delivered.
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountSnapshot, ChainClient, ProgramAccountFilter } from '../../src/chain/chain-client.js';
import type { TokenAccountRow } from '../../db/repositories/token-accounts.repository.js';
import { decodeTokenAccountSnapshot } from '../../src/services/token-account-index.js';
import { IndexSubscriptions } from '../../src/services/family-b/index-subscriptions.js';
import { buy, createMarket, fundedWallet, get, openHarness, USDC, waitFor, type BHarness } from './family-b.harness.js';

let h: BHarness;
let subs: IndexSubscriptions;
const subscribed: Array<{ programId: string; filters: ProgramAccountFilter[] }> = [];
const delivered: Array<{ programId: string; account: AccountSnapshot }> = [];
const tokenRows: TokenAccountRow[] = [];
const TOKEN = TOKEN_PROGRAM_ID.toBase58();

/** The daemon's chain client, recording subscriptions and what the chain delivers to them. */
function recording(client: ChainClient): ChainClient {
  return new Proxy(client, {
    get(target, key, receiver) {
      if (key !== 'onProgramAccountChange') return Reflect.get(target, key, receiver);
      return (programId: string, listener: (a: AccountSnapshot) => void, filters: ProgramAccountFilter[] = []) => {
        subscribed.push({ programId, filters });
        return target.onProgramAccountChange(
          programId,
          (account) => {
            delivered.push({ programId, account });
            listener(account);
          },
          filters,
        );
      };
    },
  });
}

let firstMarket: { yesMint: string; noMint: string };

beforeAll(async () => {
  h = await openHarness();
  const creator = await fundedWallet(h);
  const id = await createMarket(h, creator);
  firstMarket = (await get(h, `/v2/markets/${id}`)).json().data;
  await waitFor('first market indexed', async () => ((await get(h, `/v2/markets/${id}`)).json().data.mintsInitialized ? true : undefined));
  const chain = recording(h.daemon.chain.client);
  subs = new IndexSubscriptions(
    { db: h.daemon.db.db, chain, programId: h.daemon.chain.programs.market, usdcMint: h.usdcMint, log: pino({ level: 'silent' }) },
    { marketChanged: () => {}, tokenAccountChanged: (row) => tokenRows.push(row) },
  );
  await subs.start();
});
afterAll(async () => {
  subs?.stop();
  await h?.close();
});

describe('index subscriptions', () => {
  it('subscribe at start to the market program and to the known mints only, each by a mint filter', async () => {
    expect(subscribed.filter((s) => s.programId === h.daemon.chain.programs.market.toBase58())).toHaveLength(1);
    const token = subscribed.filter((s) => s.programId === TOKEN);
    expect(token.map((s) => s.filters)).toEqual(
      expect.arrayContaining([
        [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: firstMarket.yesMint } }],
        [{ dataSize: 165 }, { memcmp: { offset: 0, bytes: firstMarket.noMint } }],
      ]),
    );
    for (const s of token) expect(s.filters.some((f) => f.memcmp?.offset === 0)).toBe(true); // never the whole Token program
    expect(subs.mints).toEqual(new Set([firstMarket.yesMint, firstMarket.noMint]));
  });

  it("a new market's mints are watched once its account appears, and only our mints' token accounts are delivered", async () => {
    const creator = await fundedWallet(h);
    const id = await createMarket(h, creator);
    const { yesMint, noMint } = (await get(h, `/v2/markets/${id}`)).json().data as { yesMint: string; noMint: string };
    await waitFor('new mints watched', async () => (subs.mints.has(yesMint) && subs.mints.has(noMint) ? true : undefined));
    expect(subscribed.filter((s) => s.programId === TOKEN)).toHaveLength(4);

    const trader = await fundedWallet(h); // USDC minted to a new account: a foreign-mint change
    await h.ledger.mintUsdc(trader.publicKey, 5n * BigInt(USDC));
    await buy(h, id, trader, 'UP', 2 * USDC); // moves USDC and mints YES to the trader
    // The ledger notifies in order, so once the YES account arrived every earlier change was delivered.
    const row = await waitFor('trader YES account delivered', async () =>
      tokenRows.find((r) => r.mint === yesMint && r.owner === trader.publicKey.toBase58()),
    );
    expect(row.amount).toBeGreaterThan(0n);

    const tokenDeliveries = delivered.filter((d) => d.programId === TOKEN).map((d) => decodeTokenAccountSnapshot(d.account)?.mint);
    expect(tokenDeliveries.length).toBeGreaterThan(0);
    expect(tokenDeliveries.every((mint) => mint !== undefined && subs.mints.has(mint))).toBe(true);
    expect(tokenDeliveries).not.toContain(h.usdcMint.toBase58());
  });
});
