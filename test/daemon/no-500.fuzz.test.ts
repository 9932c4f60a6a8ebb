/**
 * "No input may produce a 500": every route of the OpenAPI document, driven by fast-check with
 * hostile inputs (wrong types, huge numbers, unicode, path segments that are neither slugs nor
 * ids, malformed JSON, garbage headers, NUL bytes and lone surrogates), must answer below 500 on
 * the whole running daemon, on SQLite and on PostgreSQL (which refuses NUL in text: issue 25).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMarket, fundedWallet, get, openHarness, type BHarness } from '../family-b/family-b.harness.js';
import { PG_AVAILABLE, postgresSchema } from '../helpers/databases.js';

const WALLET = 'So11111111111111111111111111111111111111112';
const scalar = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map((n) => n.toString()),
  fc.constantFrom(
    WALLET,
    'YES',
    'no',
    '0',
    '-1',
    '1e309',
    '99999999999999999999999',
    'NaN',
    '',
    ' ',
    null,
    true,
    false,
    'a\u0000b',
    '\ud800',
    'x\udc00',
  ),
);
/** PAYMENT-SIGNATURE: garbage, or a v2 payload shape around random transaction bytes and extras. */
const paymentSignature = fc.oneof(
  fc.base64String({ maxLength: 120 }),
  fc
    .record({
      x402Version: fc.constantFrom(2, 1, '2'),
      accepted: fc.record({
        scheme: fc.constantFrom('exact', 'upto', ''),
        network: fc.string({ maxLength: 50 }),
        amount: fc.string(),
        asset: fc.string(),
        payTo: fc.string(),
        maxTimeoutSeconds: fc.integer(),
        extra: fc.dictionary(fc.string({ maxLength: 8 }), scalar),
      }),
      payload: fc.record({ transaction: fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b).toString('base64')) }),
    })
    .map((p) => Buffer.from(JSON.stringify(p)).toString('base64')),
);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 8 }), scalar, { maxKeys: 3 }));
const keys = fc.constantFrom(
  'wallet',
  'amount',
  'side',
  'title',
  'description',
  'yesTicker',
  'noTicker',
  'resolutionTime',
  'seedAmount',
  'tradeFeeBps',
  'winningSide',
  'marketId',
  'slug',
  'usdc',
  'sol',
  'tokenAmount',
  'transferTxHash',
  'name',
  'endDate',
  'outcome',
  'q',
  'limit',
  'offset',
  'status',
  'action',
);
const body = fc.oneof(
  fc.dictionary(keys, value, { maxKeys: 8 }),
  value,
  fc.string({ maxLength: 30 }).map((s) => ({ raw: `{${s}` })),
);
const segment = fc.oneof(
  fc.constantFrom(
    '1',
    '0',
    '999999999999',
    '18446744073709551616',
    '10000000000000000000',
    '9007199254740992',
    '-3',
    WALLET,
    'some-slug',
    '\u0000',
    'a\u0000b',
    '..',
    'a'.repeat(300),
  ),
  fc.webSegment(),
);

function fill(path: string, parts: string[]): string {
  let i = 0;
  return path.replace(/\{[^}]+\}/g, () => encodeURIComponent(parts[i++ % parts.length] ?? 'x'));
}

for (const dialect of ['sqlite', 'postgres'] as const)
  describe.skipIf(dialect === 'postgres' && !PG_AVAILABLE)(`no input produces a 500 on ${dialect}`, () => {
    let h: BHarness;
    let dropSchema: (() => Promise<void>) | undefined;
    let routes: Array<{ method: string; path: string }>;
    const statuses = new Map<number, number>();

    beforeAll(async () => {
      const env: Record<string, string> = { TX_BUILD_TIMEOUT_MS: '3000' };
      if (dialect === 'postgres') {
        const schema = await postgresSchema();
        dropSchema = schema.drop;
        env.DATABASE_URL = schema.url;
      }
      h = await openHarness(env);
      const doc = (await get(h, '/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
      routes = Object.entries(doc.paths).flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => ({ method: method.toUpperCase(), path })),
      );
    }, 60_000);
    afterAll(async () => {
      await h?.close();
      await dropSchema?.();
    });

    it('holds for every documented route', async () => {
      expect(routes.length).toBeGreaterThan(30);
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 10_000 }),
          fc.array(segment, { minLength: 1, maxLength: 3 }),
          body,
          fc.dictionary(keys, fc.oneof(fc.string({ maxLength: 20 }), fc.integer().map(String), fc.constantFrom('a\u0000b', '\ud800')), {
            maxKeys: 4,
          }),
          fc.option(fc.base64String({ maxLength: 60 }), { nil: undefined }),
          fc.option(paymentSignature, { nil: undefined }),
          async (pick, parts, payload, query, xPayment, standard) => {
            const route = routes[pick % routes.length]!;
            const url = `${fill(route.path, parts)}?${new URLSearchParams(query).toString()}`;
            const raw = typeof payload === 'object' && payload !== null && 'raw' in payload ? String(payload.raw) : undefined;
            const res = await h.app.inject({
              method: route.method as 'GET',
              url,
              headers: {
                'content-type': 'application/json',
                ...(xPayment ? { 'x-payment': xPayment } : {}),
                ...(standard ? { 'payment-signature': standard } : {}),
              },
              ...(route.method === 'GET' || route.method === 'HEAD' ? {} : { payload: raw ?? JSON.stringify(payload) }),
            });
            statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
            expect(res.statusCode, `${route.method} ${url} ${raw ?? JSON.stringify(payload)} → ${res.body}`).toBeLessThan(500);
          },
        ),
        { numRuns: 2000 },
      );
      // The inputs must reach past schema validation too, not only bounce off it.
      console.log('fuzz statuses', Object.fromEntries(statuses));
      expect([...statuses.keys()].some((s) => s !== 400 && s !== 404)).toBe(true);
    }, 240_000);

    it('holds for well-formed Family B writes with adversarial values on a real market', async () => {
      const creator = await fundedWallet(h);
      const marketId = await createMarket(h, creator);
      const wallets = [creator.publicKey.toBase58(), WALLET, '11111111111111111111111111111111'];
      const ids = fc.constantFrom(marketId, marketId + 1, 1, 2 ** 53 - 1);
      const amount = fc.oneof(fc.constantFrom(100_000, 99_999, 2 ** 53 - 1, 10 ** 15, 1), fc.integer({ min: 1, max: 2 ** 31 }));
      const side = fc.constantFrom('UP', 'down', 'YES', 'no', 'MAYBE', '');
      const action = fc.constantFrom('buy', 'sell', 'resolve', 'redeem', 'claim-fees', 'cancel', 'init-mints');
      const seen = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(
          ids,
          fc.constantFrom(...wallets),
          action,
          side,
          amount,
          fc.integer({ min: 0, max: 6000 }),
          async (id, wallet, act, s, amt, slippageBps) => {
            const res = await h.app.inject({
              method: 'POST',
              url: `/v2/markets/${id}/${act}`,
              payload: { wallet, side: s, winningSide: s, amount: amt, slippageBps },
            });
            seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
            expect(res.statusCode, `${act} ${id} ${wallet} ${s} ${amt} → ${res.body}`).toBeLessThan(500);
          },
        ),
        { numRuns: 300 },
      );
      const quote = await get(h, `/v2/markets/${marketId}/quote?side=UP&amount=${2 ** 53 - 1}`);
      expect(quote.statusCode).toBeLessThan(500);
      console.log('family B write statuses', Object.fromEntries(seen));
      expect(seen.get(200)).toBeGreaterThan(0);
      expect([...seen.keys()].filter((c) => c >= 400).length).toBeGreaterThan(1);
    }, 240_000);

    // Found by the property above: ids past 2^63 reached the database as int8 and failed there.
    it.each(['9007199254740992', '9223372036854775808', '10000000000000000000', '18446744073709551616', '1'.repeat(40)])(
      'answers integer market id %s with a 4xx on every id route',
      async (id) => {
        const urls = [
          ['GET', `/v2/markets/${id}`],
          ['GET', `/v2/markets/${id}/details`],
          ['GET', `/v2/markets/${id}/quote?side=YES&amount=100000`],
          ['GET', `/v2/positions/${WALLET}/${id}`],
          ['POST', `/v2/markets/${id}/buy`],
          ['POST', `/v2/markets/${id}/redeem`],
        ] as const;
        for (const [method, url] of urls) {
          const res = await h.app.inject({
            method,
            url,
            ...(method === 'POST' ? { payload: { wallet: WALLET, side: 'YES', amount: 100_000 } } : {}),
          });
          expect(res.statusCode, `${method} ${url} → ${res.body}`).toBeGreaterThanOrEqual(400);
          expect(res.statusCode, `${method} ${url} → ${res.body}`).toBeLessThan(500);
        }
      },
    );
  });
