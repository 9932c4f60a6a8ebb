/* eslint-disable @typescript-eslint/no-explicit-any -- JSON answers of the API under test, read loosely */
// Issue 8 item 9: OpenAPI documents the sell X-PAYMENT payload, the 402 bodies, and types `data`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from './family-a.harness.js';

let h: Harness;
let doc: {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Array<{ name: string; description?: string }>;
        responses: Record<string, { content: Record<string, { schema: any }> }>;
      }
    >
  >;
};
beforeAll(async () => {
  h = await createHarness({ workers: false });
  doc = (await h.t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(async () => {
  await h?.close();
});

const schema = (path: string, status: string) => doc.paths[path]!.post!.responses[status]!.content['application/json']!.schema;

describe('Family A in OpenAPI', () => {
  it('documents the sell X-PAYMENT payload and its 402 body (the token transfer it asks for)', () => {
    const sell = '/v2/markets/{slug}/trade/sell';
    const header = doc.paths[sell]!.post!.parameters!.find((p) => p.name === 'x-payment')!;
    expect(header.description).toMatch(/payTo \(payment\.sendTo\), asset \(payment\.tokenMint\), quoteIssuedAt/);
    const required = schema(sell, '402');
    expect(Object.keys(required.properties.payment.properties)).toEqual(
      expect.arrayContaining(['tokenMint', 'sendTo', 'tokenAmount', 'tokenAmountAtomic']),
    );
    expect(Object.keys(required.properties.quote.properties)).toEqual(
      expect.arrayContaining(['usdcPayout', 'targetPrice', 'issuedAt', 'expiresAt', 'ttlMs']),
    );
    expect(required.properties.paymentOutcome.properties.transfers.items.properties.state).toBeDefined();
    expect(Object.keys(schema(sell, '200').properties.data.properties)).toEqual(
      expect.arrayContaining(['usdcPayout', 'usdcPayoutTxHash', 'deliveryStatus']),
    );
  });

  it('documents the buy and creation 402 bodies and types every trade and claim `data`', () => {
    const buy = schema('/v2/markets/{slug}/trade/buy', '402');
    expect(Object.keys(buy.properties.payment.properties.accepts.items.properties)).toEqual(['network', 'asset', 'amount', 'payTo']);
    expect(schema('/v2/markets', '402').properties.payment.properties.windowSeconds).toBeDefined();
    expect(schema('/v2/markets/{slug}/trade/buy', '200').properties.data.properties.tokenAmount).toBeDefined();
    expect(schema('/v2/markets/{slug}/claim', '200').properties.data.properties.payoutFunding).toBeDefined();
    const confirm = schema('/v2/markets/{slug}/claim/confirm', '200').properties.data.properties;
    expect(JSON.stringify(confirm.deliveryStatus)).toContain('awaiting_funds');
  });

  it('lists a query parameter with a default as optional (a generated client need not pass it)', () => {
    const params = (doc.paths['/v2/markets']!.get!.parameters ?? []) as Array<{ name: string; required?: boolean }>;
    expect(params.find((p) => p.name === 'limit')).toMatchObject({ required: false });
  });
});
