/**
 * `npm run example:x402`: a Family A market bought and sold back by an agent that pays with the
 * x402 Foundation's standard client (@x402/fetch + @x402/svm), holding USDC and no SOL, against a
 * running daemon (docs/x402-standard.md). The agent's key is generated here and never sent.
 *
 * The operator step (creating the market) needs the admin token: ADMIN_TOKEN, or the file
 * DATA_DIR/admin-token (default ./data/admin-token) the daemon wrote. Narrates on stderr; prints
 * one JSON summary on stdout (test/e2e/x402-standard.e2e.test.ts runs this very script).
 * API_URL defaults to http://127.0.0.1:8080.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createKeyPairSignerFromBytes } from '@solana/kit';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from '@x402/fetch';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import { ExactSvmScheme } from '@x402/svm/exact/client';

const API = process.env.API_URL ?? 'http://127.0.0.1:8080';
const ADMIN = process.env.ADMIN_TOKEN ?? readFileSync(path.join(process.env.DATA_DIR ?? './data', 'admin-token'), 'utf8').trim();
const say = (text: string) => process.stderr.write(`• ${text}\n`);
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function ok(url: string, body?: unknown, admin = false): Promise<Json> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(admin ? { authorization: `Bearer ${ADMIN}` } : {}) };
  const res = await fetch(`${API}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Json;
  if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(json)}`);
  return json.data as Json;
}

const config = await ok('/v2/config').catch((error: Error) => {
  say(`cannot reach the daemon at ${API} (${error.message}): start it with \`npm start\`, or set API_URL`);
  process.exit(1);
});
const conn = new Connection(config.rpcUrl as string, 'confirmed');
const balance = async (owner: string, mint: string) =>
  (await conn.getParsedTokenAccountsByOwner(new PublicKey(owner), { mint: new PublicKey(mint) })).value.reduce(
    (sum, a) => sum + BigInt(a.account.data.parsed.info.tokenAmount.amount as string),
    0n,
  );

const market = await ok(
  '/v2/admin/markets',
  { name: `Agents pay by x402 ${Date.now()}`, description: 'example', endDate: '2030-01-01T00:00:00Z' },
  true,
);
say(`operator created ${market.slug} (${market.status})`);

const agent = Keypair.generate();
const wallet = agent.publicKey.toBase58();
await ok('/v2/dev/faucet', { wallet, usdc: '10000000' });
say(`agent ${wallet}: 10 USDC from the dev faucet, no SOL`);

// What the daemon offers, read from a bare 402 (an agent's client does this by itself).
const offer = await fetch(`${API}/v2/markets/${market.slug}/trade/buy`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ wallet, amount: 1.5, side: 'YES' }),
});
const network = decodePaymentRequiredHeader(offer.headers.get('PAYMENT-REQUIRED')!).accepts[0]!.network;
say(`402 offers exact on ${network}; the agent's RPC is the local cluster ${config.rpcUrl}`);

// The five lines of README.md.
const signer = await createKeyPairSignerFromBytes(agent.secretKey);
const assets = [config.usdcMint as string, market.cas.Yes as string].map((asset) => ({ network, asset }));
const client = x402Client.fromConfig({
  schemes: [{ network, client: new ExactSvmScheme(signer, { rpcUrl: config.rpcUrl as string }) }],
  spendControls: { allowedAssets: assets },
});
const pay = wrapFetchWithPayment(fetch, client);
const post = (route: string, body: unknown) =>
  pay(`${API}/v2/markets/${market.slug}/trade/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const bought = await post('buy', { wallet, amount: 1.5, side: 'YES' });
const buy = {
  status: bought.status,
  receipt: decodePaymentResponseHeader(bought.headers.get('PAYMENT-RESPONSE')!),
  body: (await bought.json()) as Json,
};
say(`bought: ${buy.status}, ${buy.body.data?.tokenAmount} YES, payment ${buy.receipt.transaction}`);
const sold = await post('sell', { wallet, tokenAmount: 1000, side: 'YES' });
const sell = {
  status: sold.status,
  receipt: decodePaymentResponseHeader(sold.headers.get('PAYMENT-RESPONSE')!),
  body: (await sold.json()) as Json,
};
say(`sold: ${sell.status}, ${sell.body.data?.usdcPayout} USDC back`);

const summary = {
  network,
  buy,
  sell,
  balances: {
    usdc: (await balance(wallet, config.usdcMint as string)).toString(),
    yes: (await balance(wallet, market.cas.Yes as string)).toString(),
    lamports: await conn.getBalance(agent.publicKey),
  },
};
process.stdout.write(`${JSON.stringify(summary)}\n`);
