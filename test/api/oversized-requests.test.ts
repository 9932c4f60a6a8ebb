/**
 * Oversized requests over a real socket (Node's parser, not inject): headers or a URL beyond the
 * 16 KiB limit answer 431 in the envelope of the path's family, and an unknown long path answers
 * 404 without echoing the whole URL back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(async () => t?.close());

describe('oversized requests', () => {
  it('431 in the family envelope for oversized headers or URLs', async () => {
    const b = await fetch(`${base}/v2/markets/1`, { headers: { 'x-big': 'a'.repeat(20_000) } });
    expect(b.status).toBe(431);
    expect(await b.json()).toEqual({ success: false, error: expect.stringContaining('16 KiB'), code: 'HEADERS_TOO_LARGE' });
    const c = await fetch(`${base}/v2/clob/markets/${'x'.repeat(20_000)}`);
    expect(c.status).toBe(431);
    expect(await c.json()).toEqual({ error: 'HEADERS_TOO_LARGE', message: expect.any(String) });
    const a = await fetch(`${base}/v2/markets/search?q=${'x'.repeat(20_000)}`);
    expect(a.status).toBe(431);
    expect(await a.json()).toMatchObject({ success: false, error: { code: 'HEADERS_TOO_LARGE' } });
  });

  it('a long unknown path is a 404 whose message is capped', async () => {
    const res = await fetch(`${base}/v2/positions/${'a'.repeat(9_000)}`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: string; code: string };
    expect(body.code).toBe('NOT_FOUND');
    expect(body.error.length).toBeLessThan(300);
  });
});
