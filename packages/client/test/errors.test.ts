import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPmxClient, PmxApiError, readErrorBody, unwrap } from '../src/index.js';

describe('error envelopes', () => {
  it("reads each family's envelope into one code and message", () => {
    expect(readErrorBody({ success: false, error: { code: 'MARKET_NOT_FOUND', message: 'no such market' } })).toEqual({
      family: 'A',
      code: 'MARKET_NOT_FOUND',
      message: 'no such market',
    });
    expect(readErrorBody({ success: false, error: 'Market 9 not found', code: 'MARKET_NOT_FOUND' })).toEqual({
      family: 'B',
      code: 'MARKET_NOT_FOUND',
      message: 'Market 9 not found',
    });
    expect(readErrorBody({ error: 'INSUFFICIENT_BALANCE', message: 'short', available: '1', required: '2' })).toEqual({
      family: 'C',
      code: 'INSUFFICIENT_BALANCE',
      message: 'short',
    });
    expect(readErrorBody('Bad Gateway')).toEqual({ family: undefined, code: 'UNKNOWN', message: 'Bad Gateway' });
  });

  it('PmxApiError keeps the whole envelope, extra fields included', () => {
    const e = new PmxApiError(400, { error: 'INSUFFICIENT_BALANCE', message: 'short', available: '1' }, '/v2/clob/orders');
    expect(e).toMatchObject({ status: 400, family: 'C', code: 'INSUFFICIENT_BALANCE', body: { available: '1' } });
    expect(e.message).toBe('/v2/clob/orders: 400 INSUFFICIENT_BALANCE: short');
  });
});

describe('unwrap over HTTP', () => {
  it('returns the data of a 2xx and throws PmxApiError with the envelope otherwise (a real HTTP server)', async () => {
    const server = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/v2/clob/orders/')) {
        res.statusCode = 404;
        res.end(JSON.stringify({ error: 'ORDER_NOT_FOUND', message: 'no such order', orderId: 'x' }));
      } else res.end(JSON.stringify({ success: true, data: { rpcUrl: 'http://127.0.0.1:8899' } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const api = createPmxClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
      expect((await unwrap(api.GET('/v2/config'))).data).toEqual({ rpcUrl: 'http://127.0.0.1:8899' });
      const error = await unwrap(api.GET('/v2/clob/orders/{id}', { params: { path: { id: 'x' } } })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PmxApiError);
      expect(error).toMatchObject({ status: 404, family: 'C', code: 'ORDER_NOT_FOUND', body: { orderId: 'x' } });
      expect((error as Error).message).toBe('/v2/clob/orders/x: 404 ORDER_NOT_FOUND: no such order');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
