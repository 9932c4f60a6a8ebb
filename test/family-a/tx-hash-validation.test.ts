// A transferTxHash or X-PAYMENT txHash that is not a transaction signature is the caller's 400,
// answered before anything asks the chain (it used to reach getSignatureStatuses).
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createHarness, createMarket, xPayment, type Harness } from './family-a.harness.js';

let h: Harness;
let slug: string;
beforeAll(async () => {
  h = await createHarness();
  slug = (await createMarket(h)).slug;
});
afterAll(async () => {
  await h?.close();
});

const wallet = Keypair.generate().publicKey.toBase58();
/** Base58 but 32 bytes (a public key), 63 and 65 bytes, base64 of 64 bytes, and characters outside base58. */
const BAD = [
  Keypair.generate().publicKey.toBase58(),
  '5'.repeat(86),
  '5'.repeat(89),
  Buffer.alloc(64, 7).toString('base64'),
  `0OIl${'5'.repeat(84)}`,
];

/** The chain was never asked about one of the bad hashes (the daemon's own jobs may ask about theirs meanwhile). */
function expectNotAsked(spy: { mock: { calls: unknown[][] } }) {
  const asked = spy.mock.calls.flat(2);
  for (const bad of BAD) expect(asked).not.toContain(bad);
}

function expectValidation(res: { statusCode: number; json(): unknown; body: string }, pattern: RegExp) {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toMatchObject({ success: false, error: { code: 'VALIDATION_ERROR', message: expect.stringMatching(pattern) } });
}

describe('transaction signatures in Family A requests', () => {
  it('refuses a malformed transferTxHash on claim/confirm with 400 in the Family A envelope, without reading the chain', async () => {
    const statuses = vi.spyOn(h.client, 'getSignatureStatuses');
    const txs = vi.spyOn(h.client, 'getTransaction');
    for (const transferTxHash of BAD) {
      const res = await h.t.app.inject({ method: 'POST', url: `/v2/markets/${slug}/claim/confirm`, payload: { wallet, transferTxHash } });
      expectValidation(res, /transferTxHash/);
    }
    expectNotAsked(statuses);
    expectNotAsked(txs);
    vi.restoreAllMocks();
  });

  it('refuses a malformed X-PAYMENT txHash on buy and sell with 400, without reading the chain', async () => {
    const statuses = vi.spyOn(h.client, 'getSignatureStatuses');
    for (const txHash of BAD) {
      const header = xPayment({
        txHash,
        amount: 1,
        payer: wallet,
        payTo: wallet,
        asset: h.usdcMint,
        quoteIssuedAt: new Date().toISOString(),
      });
      const buy = await h.t.app.inject({
        method: 'POST',
        url: `/v2/markets/${slug}/trade/buy`,
        headers: { 'x-payment': header },
        payload: { wallet, amount: 1, side: 'YES' },
      });
      expectValidation(buy, /txHash is not/);
      const sell = await h.t.app.inject({
        method: 'POST',
        url: `/v2/markets/${slug}/trade/sell`,
        headers: { 'x-payment': header },
        payload: { wallet, tokenAmount: 1, side: 'YES' },
      });
      expectValidation(sell, /txHash is not/);
    }
    expectNotAsked(statuses);
    vi.restoreAllMocks();
  });
});
