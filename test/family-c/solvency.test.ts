/**
 * The Money page's solvency checks on the real stack (embedded cluster, SQLite and PostgreSQL):
 * a Family B AMM and pool market with trades and an orderbook market with complete sets pass,
 * with every number written out; the orderbook's rule follows resolution; a wallet below its
 * threshold (set above what the operator holds) is marked red on the page; reads go to the chain
 * in chunks of at most 100 accounts, and a report is kept 5 s.
 */
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChainClient } from '../../src/chain/chain-client.js';
import { readAccounts } from '../../src/services/console/solvency-reads.js';
import { cachedSolvency, type SolvencyReport } from '../../src/services/console/solvency.service.js';
import { buy, createMarket, fundedWallet } from '../family-b/family-b.harness.js';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';
import { CLOB_DATABASES, openClobHarnessOn } from './dialect-harness.js';
import { admin, clobWrite, createClobMarket, depositedTrader, get, USDC, waitFor, type CHarness } from './family-c.harness.js';

const bearer = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** The real chain client, counting getMultipleAccounts calls and their sizes. */
function counting(chain: ChainClient) {
  const sizes: number[] = [];
  const client = new Proxy(chain, {
    get(target, key, receiver) {
      if (key === 'getMultipleAccounts')
        return (addresses: string[]) => {
          sizes.push(addresses.length);
          return target.getMultipleAccounts(addresses);
        };
      const value = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { client, sizes };
}

describe.each(CLOB_DATABASES)('solvency checks on $name', ({ name, available }) => {
  let h: CHarness;
  beforeAll(async () => {
    // The operator holds a few SOL on the embedded cluster: a threshold of 1 000 000 SOL makes its check fail for real.
    if (available) h = await openClobHarnessOn(name, { CONSOLE_OPERATOR_MIN_SOL: '1000000' });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const report = async (): Promise<SolvencyReport> => {
    const res = await h.app.inject({ method: 'GET', url: '/v2/admin/solvency', headers: bearer });
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };

  it.skipIf(!available)(
    'healthy vaults pass with their numbers, and a wallet below its threshold is marked red',
    async () => {
      const creator = await fundedWallet(h);
      const buyer = await fundedWallet(h);
      const amm = await createMarket(h, creator, { seedAmount: 1_000 * 1_000_000, tradeFeeBps: 200 });
      await buy(h, amm, buyer, 'UP', 100 * 1_000_000);
      const pool = await createMarket(h, creator, { seedAmount: 0, tradeFeeBps: 200 });
      await buy(h, pool, buyer, 'UP', 100 * 1_000_000);
      const clob = await createClobMarket(h);
      const holder = await depositedTrader(h, 20n * USDC);
      await clobWrite(
        h,
        '/v2/clob/account/split',
        { pubkey: holder.publicKey.toBase58(), marketId: clob.id, amount: (10n * USDC).toString() },
        holder,
      );

      // Family B markets are listed once the indexer has them; the report then reads them from the chain.
      const db = h.daemon.db.db;
      await waitFor('both Family B markets indexed', async () => {
        const rows = await db
          .selectFrom('chain_markets')
          .select('market_id')
          .where('market_id', 'in', [BigInt(amm), BigInt(pool)])
          .execute();
        return rows.length === 2 ? true : undefined;
      });
      const data = await report();

      // The docs' AMM example: seed 1000, buy 100 YES at 200 bps → 184 507 295 YES, collateral 1 098 000 000, fees 2 000 000.
      expect(data.familyB.find((m) => m.marketId === String(amm))).toMatchObject({
        mode: 'amm',
        status: 'active',
        vaultBalance: '1100000000',
        yesSupply: '184507295',
        noSupply: '0',
        collateral: '1098000000',
        unclaimedFees: '2000000',
        owedToHolders: '184507295',
        required: '1100000000',
        shortfall: '0',
        ok: true,
        problem: null,
      });
      // The docs' pool example: 193 000 000 YES tokens, but the holders are owed the pot (98 000 000), not the supply.
      expect(data.familyB.find((m) => m.marketId === String(pool))).toMatchObject({
        mode: 'pool',
        vaultBalance: '100000000',
        yesSupply: '193000000',
        owedToHolders: '98000000',
        required: '100000000',
        ok: true,
      });
      expect(data.orderbook.find((m) => m.id === clob.id)).toMatchObject({
        status: 'active',
        vaultBalance: '10000000',
        yesSupply: '10000000',
        noSupply: '10000000',
        completeSets: '10000000',
        required: '10000000',
        ok: true,
        problem: null,
      });
      expect(data.wallets.filter((w) => !w.ok).map((w) => w.role)).toEqual(['exchange operator']);
      expect(data.failing).toEqual({ wallets: 1, familyB: 0, orderbook: 0 });
      const operator = data.wallets.find((w) => w.role === 'exchange operator')!;
      expect(operator).toMatchObject({ address: h.daemon.chain.wallets.exchangeOperator.publicKey.toBase58(), ok: false });
      expect(operator.minLamports).toBe('1000000000000000');
      expect(data.wallets.find((w) => w.role === 'treasury')).toMatchObject({ ok: true });

      const page = await h.app.inject({ method: 'GET', url: '/admin/money', headers: { ...bearer, accept: 'text/html' } });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Solvency checks fail: 1 wallet(s) below their SOL threshold');
      expect(page.body.match(/data-check="fail"/g)).toHaveLength(1);
      expect(page.body).toContain('✗ below 1000000.000000000 SOL');
      expect(page.body).toContain(`href="/admin/markets/c/${clob.id}"`);
      expect(page.body).toContain('<h2>Waiting for funds</h2>'); // Family A's part is still there
    },
    90_000,
  );

  it.skipIf(!available)('is behind the admin token and documented in OpenAPI with its schema', async () => {
    expect((await h.app.inject({ method: 'GET', url: '/v2/admin/solvency' })).statusCode).toBe(401);
    const html = await h.app.inject({ method: 'GET', url: '/admin/money', headers: { accept: 'text/html' } });
    expect(html.headers.location).toBe('/admin/login?next=%2Fadmin%2Fmoney');
    const doc = (await get(h, '/openapi.json')).json();
    const op = doc.paths['/v2/admin/solvency'].get;
    expect(op.tags).toEqual(['admin']);
    const data = op.responses['200'].content['application/json'].schema.properties.data;
    expect(Object.keys(data.properties)).toEqual(['checkedAt', 'marketsPerFamily', 'failing', 'wallets', 'familyB', 'orderbook']);
  });

  it.skipIf(!available)('after resolution an orderbook vault owes the winning supply only', async () => {
    const clob = await createClobMarket(h);
    const holder = await depositedTrader(h, 20n * USDC);
    const pubkey = holder.publicKey.toBase58();
    await clobWrite(h, '/v2/clob/account/split', { pubkey, marketId: clob.id, amount: (4n * USDC).toString() }, holder);
    await waitFor('split tokens indexed', async () =>
      (await get(h, `/v2/clob/account/balances?pubkey=${pubkey}`)).json().markets[0]?.noTokens === '4000000' ? true : undefined,
    );
    expect((await admin(h, `/v2/admin/clob/markets/${clob.id}/resolve`, { outcome: 'no' })).statusCode).toBe(200);
    // 1 NO redeemed: 3 NO left (owed), 4 YES left (worth nothing); the vault holds 3.
    await clobWrite(h, '/v2/clob/account/redeem', { pubkey, marketId: clob.id, amount: (1n * USDC).toString() }, holder);
    const solvency = cachedSolvency(
      {
        db: h.daemon.db.db,
        chain: h.daemon.chain.client,
        usdcMint: h.usdcMint.toBase58(),
        marketProgram: h.daemon.chain.programs.market.toBase58(),
        exchangeProgram: h.daemon.chain.programs.exchange!.toBase58(),
        wallets: [],
      },
      0,
    );
    const row = (await solvency()).orderbook.find((m) => m.id === clob.id);
    expect(row).toMatchObject({
      status: 'resolved',
      outcome: 'no',
      vaultBalance: '3000000',
      yesSupply: '4000000',
      noSupply: '3000000',
      required: '3000000',
      shortfall: '0',
      ok: true,
    });
  });

  it.skipIf(!available)('reads the chain in chunks of at most 100 accounts and keeps a report 5 s', async () => {
    const { client, sizes } = counting(h.daemon.chain.client);
    const treasury = h.daemon.chain.wallets.treasury.publicKey.toBase58();
    const funded = (await Promise.all([1, 2, 3].map(() => fundedWallet(h, 0)))).map((w) => w.publicKey.toBase58());
    const accounts = await readAccounts(client, [...Array.from({ length: 250 }, () => treasury), ...funded]);
    expect(sizes).toEqual([4]); // duplicates are read once
    expect([...accounts.values()].every((a) => a !== null && a.lamports > 0n)).toBe(true);
    sizes.length = 0;
    const fresh = Array.from({ length: 230 }, () => Keypair.generate().publicKey.toBase58());
    const missing = await readAccounts(client, fresh);
    expect(sizes).toEqual([100, 100, 30]);
    expect([...missing.values()].every((a) => a === null)).toBe(true);

    let now = 1_000_000;
    const deps = {
      db: h.daemon.db.db,
      chain: client,
      usdcMint: h.usdcMint.toBase58(),
      marketProgram: h.daemon.chain.programs.market.toBase58(),
      exchangeProgram: null,
      wallets: [],
    };
    const solvency = cachedSolvency(deps, 5_000, () => now);
    sizes.length = 0;
    const [first, second] = await Promise.all([solvency(), solvency()]);
    expect(second).toBe(first);
    const reads = sizes.length;
    expect(reads).toBeGreaterThan(0);
    now += 4_999;
    expect(await solvency()).toBe(first);
    expect(sizes.length).toBe(reads);
    now += 1;
    expect(await solvency()).not.toBe(first);
    expect(sizes.length).toBe(2 * reads);
  });
});
