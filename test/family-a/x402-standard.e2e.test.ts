// Standard x402 v2 end to end, as an off-the-shelf agent pays: @x402/fetch wraps fetch, @x402/svm
// builds the partially signed transfer from PAYMENT-REQUIRED, the daemon co-signs as fee payer.
// The agent holds USDC and no SOL at all.
import { createKeyPairSignerFromBytes } from '@solana/kit';
import { Keypair } from '@solana/web3.js';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { ExactSvmScheme } from '@x402/svm/exact/client';
import { startClusterEndpoints, type ClusterEndpoints } from '@pmx/local-cluster';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOLANA_CAIP2 } from '../../src/services/family-a/x402-standard/networks.js';
import type { DatabaseHandle } from '../../db/database.js';
import { DIALECTS } from '../helpers/databases.js';
import { createHarness, createMarket, tokenBalance, type Harness } from './family-a.harness.js';

let h: Harness;
let endpoints: ClusterEndpoints;
let base: string;
/** The PAYMENT-SIGNATURE headers the agents sent, for replaying them. */
const sent: string[] = [];

/** fetch as the agent's process sees it, noting what it sends. */
const recordingFetch: typeof fetch = async (input, init) => {
  const header = input instanceof Request ? input.headers.get('PAYMENT-SIGNATURE') : null;
  if (header) sent.push(header);
  return fetch(input, init);
};

/** An agent's client as the README shows it; it may spend the local USDC and the market's outcome tokens (non-default assets). */
async function agentWithUsdc(usdcRaw: bigint, outcomeMints: string[]) {
  const keypair = Keypair.generate();
  await h.ledger.mintUsdc(keypair.publicKey, usdcRaw);
  const network = SOLANA_CAIP2.devnet; // the SVM client knows mainnet, devnet and testnet only; its RPC is the local cluster
  const signer = await createKeyPairSignerFromBytes(keypair.secretKey);
  const client = x402Client.fromConfig({
    schemes: [{ network, client: new ExactSvmScheme(signer, { rpcUrl: endpoints.rpcUrl }) }],
    spendControls: { allowedAssets: [h.usdcMint, ...outcomeMints].map((asset) => ({ network, asset, maxAmountPerPayment: '5000000000' })) },
  });
  return { keypair, wallet: keypair.publicKey.toBase58(), pay: wrapFetchWithPayment(recordingFetch, client) };
}

function post(pay: typeof fetch, path: string, body: unknown) {
  return pay(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

for (const { name, available, open } of DIALECTS)
  describe.skipIf(!available)(`Family A with standard x402 v2 (@x402/fetch + @x402/svm) on ${name}`, () => {
    let db: DatabaseHandle;
    beforeAll(async () => {
      db = await open();
      h = await createHarness({ db });
      endpoints = await startClusterEndpoints(h.ledger, 0);
      await h.t.app.listen({ port: 0, host: '127.0.0.1' });
      const address = h.t.app.server.address();
      base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    afterAll(async () => {
      await endpoints?.close();
      await h?.close();
      await db?.close();
    });

    it('an agent with USDC and no SOL buys, then sells back, by wrapping fetch', async () => {
      const market = await createMarket(h);
      const agent = await agentWithUsdc(10_000_000n, [market.cas.Yes]); // 10 USDC
      expect(await h.client.getAccount(agent.wallet)).toBeNull(); // no SOL, not even an account

      const bought = await post(agent.pay, `/v2/markets/${market.slug}/trade/buy`, { wallet: agent.wallet, amount: 1.5, side: 'YES' });
      const buyBody = (await bought.json()) as { data: Record<string, unknown> };
      expect(bought.status, JSON.stringify(buyBody)).toBe(200);
      const receipt = decodePaymentResponseHeader(bought.headers.get('PAYMENT-RESPONSE')!);
      expect(receipt).toMatchObject({ success: true, network: SOLANA_CAIP2.devnet, payer: agent.wallet });
      expect(buyBody.data).toMatchObject({
        action: 'buy',
        side: 'YES',
        amount: 1.5,
        paymentTxHash: receipt.transaction,
        deliveryStatus: 'confirmed',
      });
      // 1.5 USDC / 0.0005 = 3000 tokens; the agent paid 1.5 + 0.25 USDC (its YES account had to be opened).
      expect(await tokenBalance(h, agent.wallet, market.cas.Yes)).toBe(3_000_000_000n);
      expect(await tokenBalance(h, agent.wallet, h.usdcMint)).toBe(10_000_000n - 1_750_000n);
      expect(await h.client.getAccount(agent.wallet)).toBeNull(); // still no SOL: the platform's fee payer paid

      const sold = await post(agent.pay, `/v2/markets/${market.slug}/trade/sell`, { wallet: agent.wallet, tokenAmount: 1000, side: 'YES' });
      const sellBody = (await sold.json()) as { data: Record<string, unknown> };
      expect(sold.status, JSON.stringify(sellBody)).toBe(200);
      expect(decodePaymentResponseHeader(sold.headers.get('PAYMENT-RESPONSE')!)).toMatchObject({ success: true, payer: agent.wallet });
      expect(sellBody.data).toMatchObject({ action: 'sell', tokenAmount: 1000, usdcPayout: 0.5, deliveryStatus: 'confirmed' });
      expect(await tokenBalance(h, agent.wallet, market.cas.Yes)).toBe(2_000_000_000n);
      expect(await tokenBalance(h, agent.wallet, h.usdcMint)).toBe(10_000_000n - 1_750_000n + 500_000n);

      const lookup = await h.t.app.inject({ method: 'GET', url: `/v2/payments/${receipt.transaction}` });
      expect(lookup.json().data).toMatchObject({ kind: 'buy', paidAmount: 1.75, deliverAmount: 3000 });

      // A replayed PAYMENT-SIGNATURE answers the original outcome and delivers nothing more.
      expect(sent).toHaveLength(2);
      const replay = await fetch(`${base}/v2/markets/${market.slug}/trade/buy`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'PAYMENT-SIGNATURE': sent[0]! },
        body: JSON.stringify({ wallet: agent.wallet, amount: 1.5, side: 'YES' }),
      });
      expect(replay.status).toBe(200);
      expect(replay.headers.get('PAYMENT-RESPONSE')).toBe(bought.headers.get('PAYMENT-RESPONSE'));
      expect(((await replay.json()) as { data: unknown }).data).toEqual(buyBody.data);
      expect(await tokenBalance(h, agent.wallet, market.cas.Yes)).toBe(2_000_000_000n);
      expect(await tokenBalance(h, agent.wallet, h.usdcMint)).toBe(10_000_000n - 1_750_000n + 500_000n);
      sent.length = 0;
    });
  });
