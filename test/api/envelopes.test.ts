import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChainError, type ChainErrorCode } from '../../src/chain/chain-errors.js';
import { DomainError, type ErrorKind } from '../../src/domain/errors.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

const Body = Type.Object({ wallet: Type.String({ minLength: 1 }), amount: Type.Integer({ minimum: 100_000 }) });

const THROWN: Record<ErrorKind, number> = {
  invalid: 400,
  unauthorized: 401,
  payment_required: 402,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  rate_limited: 429,
  unavailable: 503,
};

/**
 * One sample route per family; `?throw=<kind>` throws that DomainError, `?throw=crash` an Error,
 * `?throw=chain:<code>` a ChainError (what the rpc adapter throws when the node fails).
 */
async function sampleRoutes(app: FastifyInstance): Promise<void> {
  const act = (query: { throw?: string }, ok: Record<string, unknown>) => {
    if (query.throw === 'crash') throw new Error('database password is hunter2');
    if (query.throw?.startsWith('chain:'))
      throw new ChainError(query.throw.slice(6) as ChainErrorCode, 'request to https://rpc.example/?api-key=hunter2 failed');
    if (query.throw)
      throw new DomainError(query.throw as ErrorKind, 'SAMPLE_REFUSED', `refused as ${query.throw}`, {
        marketStatus: 'closed',
        retryable: false,
      });
    return ok;
  };
  const Query = Type.Object({ throw: Type.Optional(Type.String()) });
  app.post(
    '/v2/markets/:slug/trade/sample',
    { schema: { params: Type.Object({ slug: Type.String() }), querystring: Query, body: Body } },
    async (request) => act(request.query as { throw?: string }, { success: true, data: { family: 'A' } }),
  );
  app.post(
    '/v2/markets/:id/sample',
    { schema: { params: Type.Object({ id: Type.Integer({ minimum: 0 }) }), querystring: Query, body: Body } },
    async (request) =>
      act(request.query as { throw?: string }, { success: true, data: { family: 'B', id: (request.params as { id: number }).id } }),
  );
  app.post('/v2/clob/sample', { schema: { querystring: Query, body: Body } }, async (request) =>
    act(request.query as { throw?: string }, { family: 'C' }),
  );
}

const PATHS = { A: '/v2/markets/will-it-rain/trade/sample', B: '/v2/markets/12/sample', C: '/v2/clob/sample' } as const;
type Fam = keyof typeof PATHS;
const FAMILIES: Fam[] = ['A', 'B', 'C'];

function expectEnvelope(family: Fam, body: Record<string, unknown>, code: string): string {
  if (family === 'A') {
    expect(body).toMatchObject({ success: false, error: { code, message: expect.any(String) } });
    return (body.error as { message: string }).message;
  }
  if (family === 'B') {
    expect(body).toMatchObject({ success: false, error: expect.any(String), code });
    return body.error as string;
  }
  expect(body).toMatchObject({ error: code, message: expect.any(String) });
  expect(body).not.toHaveProperty('success');
  return body.message as string;
}

describe('error envelopes by family', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ routes: [sampleRoutes] });
  });
  afterAll(async () => {
    await t?.close();
  });

  const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });

  it.each(FAMILIES)('family %s: a valid request succeeds', async (family) => {
    const response = await post(PATHS[family], JSON.stringify({ wallet: 'w1', amount: 100_000 }));
    expect(response.statusCode).toBe(200);
    if (family === 'B') expect(response.json()).toEqual({ success: true, data: { family: 'B', id: 12 } });
  });

  it.each(FAMILIES)('family %s: malformed JSON is a 400 in the family envelope', async (family) => {
    const response = await post(PATHS[family], '{"wallet": "w1", "amount": ');
    expect(response.statusCode).toBe(400);
    expect(expectEnvelope(family, response.json(), 'VALIDATION_ERROR')).toMatch(/JSON/);
  });

  it.each(FAMILIES)('family %s: schema violations are 400s naming the field', async (family) => {
    const tooSmall = await post(PATHS[family], JSON.stringify({ wallet: 'w1', amount: 99_999 }));
    expect(tooSmall.statusCode).toBe(400);
    expect(expectEnvelope(family, tooSmall.json(), 'VALIDATION_ERROR')).toMatch(/amount/);

    const missing = await post(PATHS[family], JSON.stringify({ amount: 200_000 }));
    expect(missing.statusCode).toBe(400);
    expect(expectEnvelope(family, missing.json(), 'VALIDATION_ERROR')).toMatch(/wallet is required/);

    const notInteger = await post(PATHS[family], JSON.stringify({ wallet: 'w1', amount: 100_000.5 }));
    expect(notInteger.statusCode).toBe(400);
    expectEnvelope(family, notInteger.json(), 'VALIDATION_ERROR');
  });

  it('family B: a wrongly typed amount is a 400 in the B envelope, and the id param is coerced', async () => {
    const response = await post('/v2/markets/12/sample', JSON.stringify({ wallet: 'w1', amount: 'lots' }));
    expect(response.statusCode).toBe(400);
    expect(expectEnvelope('B', response.json(), 'VALIDATION_ERROR')).toMatch(/amount/);
    const ok = await post('/v2/markets/007/sample', JSON.stringify({ wallet: 'w1', amount: 100_000 }));
    expect(ok.json()).toEqual({ success: true, data: { family: 'B', id: 7 } });
  });

  it.each([
    ['/v2/clob/x', 'C'],
    ['/v2/markets/12/x', 'B'],
    ['/v2/markets/some-slug/x', 'A'],
  ] as Array<[string, Fam]>)('unknown path %s is a 404 in family %s', async (url, family) => {
    for (const method of ['GET', 'POST'] as const) {
      const response = await t.app.inject({ method, url });
      expect(response.statusCode).toBe(404);
      expect(expectEnvelope(family, response.json(), 'NOT_FOUND')).toContain(url);
    }
  });

  it.each(FAMILIES)('family %s: an unexpected Error is a masked 500 carrying the request id', async (family) => {
    const response = await post(`${PATHS[family]}?throw=crash`, JSON.stringify({ wallet: 'w1', amount: 100_000 }), {
      'x-request-id': `req-${family}-42`,
    });
    expect(response.statusCode).toBe(500);
    const message = expectEnvelope(family, response.json(), 'INTERNAL_ERROR');
    expect(message).toContain(`req-${family}-42`);
    expect(response.body).not.toContain('hunter2');
    expect(response.body).not.toContain('password');
  });

  it.each(FAMILIES)('family %s: DomainError kinds map to their statuses and keep extra fields', async (family) => {
    for (const [kind, status] of Object.entries(THROWN)) {
      const response = await post(`${PATHS[family]}?throw=${kind}`, JSON.stringify({ wallet: 'w1', amount: 100_000 }));
      expect(response.statusCode, kind).toBe(status);
      const body = response.json();
      expect(expectEnvelope(family, body, 'SAMPLE_REFUSED')).toBe(`refused as ${kind}`);
      expect(body).toMatchObject({ marketStatus: 'closed', retryable: false });
    }
  });

  const CHAIN: Array<[ChainErrorCode, number, string]> = [
    ['NODE_UNAVAILABLE', 503, 'NODE_UNAVAILABLE'],
    ['RATE_LIMITED', 503, 'NODE_UNAVAILABLE'],
    ['TIMEOUT', 503, 'NODE_UNAVAILABLE'],
    ['BLOCKHASH_NOT_FOUND', 503, 'NODE_UNAVAILABLE'],
    ['INVALID_PARAMS', 400, 'VALIDATION_ERROR'],
    ['PROGRAM_ERROR', 400, 'CHAIN_PROGRAM_ERROR'],
    ['ACCOUNT_NOT_FOUND', 404, 'CHAIN_ACCOUNT_NOT_FOUND'],
    ['INVALID_TRANSACTION', 400, 'CHAIN_INVALID_TRANSACTION'],
    ['ALREADY_PROCESSED', 409, 'CHAIN_ALREADY_PROCESSED'],
    ['UNKNOWN', 502, 'NODE_ERROR'],
  ];
  it.each(FAMILIES)(
    'family %s: chain failures are 503 when retrying can help, 4xx naming the chain verdict on the request, else 502 (never a 500)',
    async (family) => {
      for (const [code, status, apiCode] of CHAIN) {
        const response = await post(`${PATHS[family]}?throw=chain:${code}`, JSON.stringify({ wallet: 'w1', amount: 100_000 }));
        expect(response.statusCode, code).toBe(status);
        expectEnvelope(family, response.json(), apiCode);
        // The node's message may carry its URL and API key: never echoed.
        expect(response.body).not.toContain('hunter2');
        if (status === 503) expect(response.headers['retry-after']).toBe('2');
      }
    },
  );
});
