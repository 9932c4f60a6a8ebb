/**
 * Where the storable-text guard runs (storable-text.ts), now that a GET or HEAD route checks in
 * its rate limit's hook and a route with a body in its own preValidation stage: every kind of
 * route still refuses unstorable text with 400 before its handler, after the rate limit (an
 * over-limit request is 429 whatever it carries), and the not-found handler still checks before
 * its limit, as the global preValidation hook did.
 */
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let handled = 0;
const routes: FastifyPluginAsync = async (app) => {
  app.get('/probe/:id', async () => ({ ok: ++handled }));
  app.post('/probe', async () => ({ ok: ++handled }));
  app.get('/unlimited/:id', { config: { rateLimit: false } }, async () => ({ ok: ++handled }));
};
beforeAll(async () => {
  t = await createTestApp({ readPerMinute: 2, writePerMinute: 2, routes: [routes] });
});
afterAll(async () => t?.close());

type Injected = { method: 'GET' | 'HEAD' | 'POST'; url: string; payload?: object; remoteAddress: string };

async function statuses(requests: Injected[]): Promise<Array<number | string>> {
  const out: Array<number | string> = [];
  for (const request of requests) {
    const res = await t.app.inject(request);
    // A HEAD answer has no body to read the code from.
    const other = res.statusCode === 400 && request.method !== 'HEAD' && !res.body.includes('VALIDATION_ERROR');
    out.push(other ? 'other 400' : res.statusCode);
  }
  return out;
}

describe('the storable-text guard', () => {
  it('refuses on a GET route after the limit, HEAD sharing its budget', async () => {
    const ip = { remoteAddress: '10.1.0.1' };
    expect(
      await statuses([
        { method: 'GET', url: '/probe/a%00b', ...ip },
        { method: 'HEAD', url: '/probe/x?q=%00', ...ip },
        { method: 'GET', url: '/probe/a%00b', ...ip },
      ]),
    ).toEqual([400, 400, 429]);
  });

  it('refuses a body on a POST route after the limit', async () => {
    const ip = { remoteAddress: '10.1.0.2' };
    const bad = { method: 'POST' as const, url: '/probe', payload: { name: 'a\u0000b' }, ...ip };
    expect(await statuses([bad, { ...bad, payload: { ['\ud800']: 1 } }, bad])).toEqual([400, 400, 429]);
  });

  it('refuses on a route without a limit, and on unknown paths before their limit', async () => {
    const ip = { remoteAddress: '10.1.0.3' };
    const unlimited = { method: 'GET' as const, url: '/unlimited/a%00b', ...ip };
    expect(await statuses([unlimited, unlimited, unlimited])).toEqual([400, 400, 400]);
    const unknown = { method: 'GET' as const, url: '/nope?x=%00', ...ip };
    expect(await statuses([unknown, unknown, unknown])).toEqual([400, 400, 400]);
    expect(await statuses([{ method: 'GET', url: '/nope', ...ip }])).toEqual([404]);
  });

  it('lets ordinary text through to the handler', async () => {
    const ip = { remoteAddress: '10.1.0.4' };
    expect(await statuses([{ method: 'GET', url: `/probe/${encodeURIComponent('☔ 😀')}?q=ok`, ...ip }])).toEqual([200]);
    expect(handled).toBe(1);
  });
});
