/**
 * A real Family C stack in this process, built as the daemon builds it (`startDaemon`): the
 * embedded ledger with the exchange program, SQLite in a temp DATA_DIR, real Redis queues under a
 * unique prefix, real workers, indexer listeners and the Fastify app (requests through
 * `inject`). Traders sign the returned v0 transactions with their own keypairs.
 */
import { Keypair, VersionedTransaction } from '@solana/web3.js';
import { signedOrder, type OrderSpec } from '../helpers/clob-orders.js';
import type { LightMyRequestResponse } from 'fastify';
import { openHarness, type BHarness } from '../family-b/family-b.harness.js';
import { TEST_ADMIN_TOKEN } from '../helpers/app.js';

export const USDC = 1_000_000n;
export type CHarness = BHarness;

export async function openClobHarness(env: Record<string, string> = {}): Promise<CHarness> {
  return openHarness({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, INDEX_INTERVAL_MS: '600000', ...env });
}

export async function trader(h: CHarness, usdcRaw = 1_000n * USDC): Promise<Keypair> {
  const wallet = Keypair.generate();
  await h.ledger.airdrop(wallet.publicKey, 2_000_000_000n);
  if (usdcRaw > 0n) await h.ledger.mintUsdc(wallet.publicKey, usdcRaw);
  return wallet;
}

export async function post(
  h: CHarness,
  url: string,
  payload: unknown,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return h.app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
}

export async function get(h: CHarness, url: string): Promise<LightMyRequestResponse> {
  return h.app.inject({ method: 'GET', url });
}

export const admin = (h: CHarness, url: string, payload: unknown = {}) =>
  post(h, url, payload, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` });

/** Signs a base64 v0 transaction as `signer` and lands it; throws when it fails on chain. */
export async function signAndSendV0(h: CHarness, base64: string, signer: Keypair): Promise<string> {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  tx.sign([signer]);
  const result = await h.ledger.sendRawTransaction(tx.serialize(), { preflight: true });
  if (result.err !== null) throw new Error(`transaction failed: ${JSON.stringify(result.err)}`);
  return result.signature;
}

/** POSTs a Family C write endpoint, expects 200, signs and lands the transaction. */
export async function clobWrite(
  h: CHarness,
  url: string,
  payload: Record<string, unknown>,
  signer: Keypair,
): Promise<Record<string, unknown>> {
  const res = await post(h, url, payload);
  if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
  const body = res.json() as Record<string, unknown> & { transaction: string };
  await signAndSendV0(h, body.transaction, signer);
  return body;
}

export function marketBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Will it rain in Lisbon tomorrow?',
    description: 'Any measurable rain at the airport station.',
    resolutionRules: 'YES if IPMA reports more than 0 mm at LPPT for the day.',
    category: 'weather',
    endDate: new Date(Date.now() + 86_400_000).toISOString(),
    yesTicker: 'RAIN',
    noTicker: 'DRY',
    ...overrides,
  };
}

export async function createClobMarket(
  h: CHarness,
  overrides: Record<string, unknown> = {},
): Promise<{ id: string; marketPubkey: string; yesMint: string; noMint: string; marketId: string }> {
  const res = await admin(h, '/v2/admin/clob/markets', marketBody(overrides));
  if (res.statusCode !== 200) throw new Error(`create market: ${res.statusCode} ${res.body}`);
  return res.json().market;
}

export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 5_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Waits until the indexed smart-wallet balance of `owner` equals `expected`. */
export async function waitForBalance(h: CHarness, owner: Keypair, expected: bigint): Promise<Record<string, unknown>> {
  return waitFor(`smart wallet balance ${expected}`, async () => {
    const res = await get(h, `/v2/clob/account/balances?pubkey=${owner.publicKey.toBase58()}`);
    const body = res.json();
    return body.smartWalletBalance === expected.toString() ? body : undefined;
  });
}

export { signedOrder, type OrderSpec } from '../helpers/clob-orders.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export async function place(h: CHarness, owner: Keypair, o: OrderSpec): Promise<Json> {
  const res = await post(h, '/v2/clob/orders', signedOrder(owner, o));
  if (res.statusCode !== 200) throw new Error(`place: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** A funded trader with `deposit` raw USDC in its smart wallet (indexed). */
export async function depositedTrader(h: CHarness, deposit: bigint): Promise<Keypair> {
  const t = await trader(h, deposit + 10n * USDC);
  await clobWrite(h, '/v2/clob/account/deposit', { pubkey: t.publicKey.toBase58(), amount: deposit.toString() }, t);
  await waitForBalance(h, t, deposit);
  return t;
}

/** `count` traders with `deposit` raw USDC in their smart wallets, each having split `split` of it into YES and NO of `market` (indexed). */
export async function splitTraders(h: CHarness, market: { id: string }, count: number, deposit: bigint, split: bigint): Promise<Keypair[]> {
  const traders: Keypair[] = [];
  for (let i = 0; i < count; i++) {
    const t = await depositedTrader(h, deposit);
    const res = await post(h, '/v2/clob/account/split', { pubkey: t.publicKey.toBase58(), marketId: market.id, amount: split.toString() });
    await signAndSendV0(h, res.json().transaction, t);
    traders.push(t);
  }
  for (const t of traders) {
    await waitFor('split indexed', async () => {
      const b = (await get(h, `/v2/clob/account/balances?pubkey=${t.publicKey.toBase58()}`)).json();
      return b.markets[0]?.yesTokens === split.toString() ? true : undefined;
    });
  }
  return traders;
}
