/**
 * GET /v2/config and the quote keep their serialized answers while the embedded ledger's account
 * write version stands (src/chain/kept-answers.ts, issue 31). Every answer is compared byte for
 * byte with a second app's, whose chain client has no version (a remote cluster's plain path) over
 * the same ledger; an account written outside any transaction (setAccount) and a landed trade are
 * both seen by the very next read; refusals are never kept.
 */
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeConfigAccount,
  decodeMarketAccount,
  encodeConfigAccount,
  encodeMarketAccount,
  findConfigPda,
  findMarketPda,
} from '@pmx/programs';
import { chainRoutes } from '../../src/api/routes/chain.routes.js';
import { familyBReadRoutes } from '../../src/api/routes/family-b/market-reads.routes.js';
import type { ChainClient } from '../../src/chain/chain-client.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { buy, createMarket, fundedWallet, get, openHarness, type BHarness } from './family-b.harness.js';

let h: BHarness;
let plain: TestApp;
beforeAll(async () => {
  h = await openHarness();
  const runtime = h.daemon.chain;
  // The same ledger through a client without the version: every answer made afresh.
  const client = Object.assign(Object.create(runtime.client) as ChainClient, { accountWriteVersion: undefined });
  const ctx = {
    db: h.daemon.db.db,
    chain: client,
    programId: runtime.programs.market,
    usdcMint: runtime.usdcMint,
    log: pino({ level: 'silent' }),
  };
  plain = await createTestApp({
    readPerMinute: 1_000_000,
    routes: [
      async (app: FastifyInstance) => chainRoutes(app, { chain: { ...runtime, client } }),
      async (app: FastifyInstance) => familyBReadRoutes(app, { ctx }),
    ],
  });
});
afterAll(async () => {
  await plain?.close();
  await h?.close();
});

/** The daemon's answer, checked against the plain app's bytes and headers at the same moment. */
async function read(url: string) {
  const res = await get(h, url);
  const fresh = await plain.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(fresh.statusCode);
  expect(res.body).toBe(fresh.body);
  for (const name of ['content-type', 'content-length']) expect(res.headers[name]).toEqual(fresh.headers[name]);
  return res;
}

function overwrite(address: string, data: Buffer): void {
  const account = h.ledger.getStoredAccount(address)!;
  h.ledger.setAccount(address, { owner: account.owner, lamports: account.lamports, data });
}

describe('kept GET /v2/config', () => {
  it('runs on a chain with a version (the path under test)', () => {
    expect(typeof h.daemon.chain.client.accountWriteVersion?.()).toBe('number');
  });

  it('a repeat read sends the same bytes as a fresh one; a write outside any transaction is seen by the next read', async () => {
    const first = await read('/v2/config');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect((await read('/v2/config')).body).toBe(first.body);
    const address = findConfigPda(h.daemon.chain.programs.market)[0].toBase58();
    const original = Buffer.from(h.ledger.getStoredAccount(address)!.data);
    const config = decodeConfigAccount(original);
    overwrite(address, encodeConfigAccount({ ...config, marketCounter: config.marketCounter + 1_000n }));
    try {
      const after = await read('/v2/config');
      expect(after.json().data.marketCounter).toBe(Number(config.marketCounter) + 1_000);
    } finally {
      overwrite(address, original);
    }
    expect((await read('/v2/config')).body).toBe(first.body);
  });

  it('a landed market shows in the next read', async () => {
    const before = (await read('/v2/config')).json().data.marketCounter as number;
    const id = await createMarket(h, await fundedWallet(h));
    expect((await read('/v2/config')).json().data.marketCounter).toBe(id);
    expect(id).toBe(before + 1);
  });
});

describe('kept GET /v2/markets/{id}/quote', () => {
  it('keeps each query apart, each equal to a fresh answer', async () => {
    const id = await createMarket(h, await fundedWallet(h));
    const urls = [
      `/v2/markets/${id}/quote?side=UP&amount=1000000`,
      `/v2/markets/${id}/quote?side=DOWN&amount=1000000`,
      `/v2/markets/${id}/quote?side=UP&amount=2000000`,
      `/v2/markets/${id}/quote?side=up&amount=1000000&action=buy`,
      `/v2/markets/${id}/quote?side=UP&amount=1000000&action=sell`,
    ];
    const bodies = new Set<string>();
    for (const url of urls) {
      const first = await read(url);
      expect((await read(url)).body).toBe(first.body);
      bodies.add(first.body);
    }
    expect(bodies.size).toBe(4); // 'up' is 'UP': the same quote, kept under its own key
  });

  it('a trade and a write outside any transaction are each seen by the next read', async () => {
    const trader = await fundedWallet(h);
    const id = await createMarket(h, trader);
    const url = `/v2/markets/${id}/quote?side=UP&amount=1000000`;
    const before = (await read(url)).body;
    expect((await read(url)).body).toBe(before);
    await buy(h, id, trader, 'UP', 5_000_000);
    const traded = (await read(url)).body;
    expect(traded).not.toBe(before);
    const address = findMarketPda(BigInt(id), h.daemon.chain.programs.market)[0].toBase58();
    const original = Buffer.from(h.ledger.getStoredAccount(address)!.data);
    const market = decodeMarketAccount(original);
    overwrite(address, encodeMarketAccount({ ...market, yesReserve: market.yesReserve * 2n }));
    try {
      expect((await read(url)).body).not.toBe(traded);
    } finally {
      overwrite(address, original);
    }
    expect((await read(url)).body).toBe(traded);
  });

  it('refusals are answered afresh and never kept', async () => {
    const id = await createMarket(h, await fundedWallet(h));
    for (let i = 0; i < 2; i++) {
      expect((await read(`/v2/markets/${id}/quote?side=MAYBE&amount=1000000`)).statusCode).toBe(400);
      expect((await read(`/v2/markets/${id + 1_000}/quote?side=UP&amount=1000000`)).statusCode).toBe(404);
    }
  });
});
