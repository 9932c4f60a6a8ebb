/**
 * `npm run example:family-c`: the orderbook end to end against a running daemon, as a trader's bot
 * would do it with only @solana/web3.js, node's crypto and fetch — keypairs generated here (never
 * sent to the service), the dev faucet, deposits into the smart wallet, signed orders of every
 * kind producing the three fill types, cancels, the book and the trades, every fill settled on
 * chain by the keeper, positions and PnL, a withdrawal refused beyond what is free, resolution,
 * redemption, and every raw USDC unit accounted for.
 *
 * The operator step (creating and resolving the market) needs the admin token: ADMIN_TOKEN, or
 * the file DATA_DIR/admin-token (default ./data/admin-token) the daemon wrote.
 * Narrates on stderr; prints one JSON summary on stdout (test/e2e/family-c.e2e.test.ts runs this
 * very script and asserts on it). API_URL defaults to http://127.0.0.1:8080; FAUCET_URL (default
 * API_URL) is the API node with the dev faucet, if another (docs/operations.md), e.g. 8081.
 */
import { createPrivateKey, sign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Connection, Keypair, PublicKey, VersionedTransaction } from '@solana/web3.js';

const API = process.env.API_URL ?? 'http://127.0.0.1:8080';
const baseOf = (url: string) => (url.startsWith('/v2/dev/faucet') ? (process.env.FAUCET_URL ?? API) : API);
const ADMIN = process.env.ADMIN_TOKEN ?? readFileSync(path.join(process.env.DATA_DIR ?? './data', 'admin-token'), 'utf8').trim();
const say = (text: string) => process.stderr.write(`• ${text}\n`);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A wallet's signMessage: Ed25519 over the UTF-8 text with the keypair's 32-byte seed. */
function signMessage(signer: Keypair, text: string): string {
  const pkcs8 = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), Buffer.from(signer.secretKey.subarray(0, 32))]);
  return sign(null, Buffer.from(text, 'utf8'), createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' })).toString('base64');
}

async function call(method: 'GET' | 'POST', url: string, body?: unknown, admin = false): Promise<{ status: number; json: Json }> {
  const headers: Record<string, string> = body !== undefined ? { 'content-type': 'application/json' } : {};
  if (admin) headers.authorization = `Bearer ${ADMIN}`;
  const res = await fetch(`${baseOf(url)}${url}`, { method, headers, body: body !== undefined ? JSON.stringify(body) : undefined });
  return { status: res.status, json: (await res.json()) as Json };
}
async function ok(method: 'GET' | 'POST', url: string, body?: unknown, admin = false): Promise<Json> {
  const r = await call(method, url, body, admin);
  if (r.status !== 200) throw new Error(`${method} ${url}: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json;
}
async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const config = (
  await ok('GET', '/v2/config').catch((error: Error) => {
    say(`cannot reach the daemon at ${API} (${error.message}): start it with \`npm start\`, or set API_URL`);
    process.exit(1);
  })
).data as Json;
const conn = new Connection(config.rpcUrl as string, 'confirmed');
const usdcMint = new PublicKey(config.usdcMint as string);
/** What `owner` holds of `mint` across its token accounts, read from the cluster. */
const tokenAmount = async (owner: PublicKey): Promise<bigint> => {
  const accounts = await conn.getParsedTokenAccountsByOwner(owner, { mint: usdcMint });
  return accounts.value.reduce(
    (s, a) => s + BigInt((a.account.data.parsed as { info: { tokenAmount: { amount: string } } }).info.tokenAmount.amount),
    0n,
  );
};
const feeWallet = new PublicKey(config.protocolFeeWallet as string);
const feeBefore = await tokenAmount(feeWallet);
say(`daemon ${API}, cluster ${String(config.rpcUrl)}, exchange program ${String(config.programs?.exchange)}`);

/** Signs the API's v0 transaction, sends it to the cluster and waits for `confirmed`. */
async function signAndSend(base64: string, signer: Keypair): Promise<string> {
  const tx = VersionedTransaction.deserialize(Buffer.from(base64, 'base64'));
  if (!tx.message.staticAccountKeys[0]!.equals(signer.publicKey)) throw new Error('fee payer is not the signer');
  tx.sign([signer]);
  const signature = await conn.sendRawTransaction(tx.serialize());
  const status = await until(`confirmation of ${signature}`, async () => {
    const [s] = (await conn.getSignatureStatuses([signature])).value;
    return s && s.confirmationStatus !== 'processed' ? s : undefined;
  });
  if (status.err) throw new Error(`transaction ${signature} failed: ${JSON.stringify(status.err)}`);
  return signature;
}
const write = async (url: string, body: Json, signer: Keypair) => {
  const r = await ok('POST', url, body);
  return { ...r, signature: await signAndSend(r.transaction as string, signer) };
};
const balances = async (who: Keypair) => ok('GET', `/v2/clob/account/balances?pubkey=${who.publicKey.toBase58()}`);

// ---- an order, as the wallet signs it ----
let nonce = BigInt(Date.now());
function order(
  owner: Keypair,
  market: string,
  side: 'buy' | 'sell',
  outcome: 'yes' | 'no',
  priceBps: number,
  quantity: bigint,
  extra: Json = {},
): Json {
  const expiry = BigInt(Math.floor(Date.now() / 1000) + 3600);
  const n = ++nonce;
  const bytes = Buffer.alloc(92);
  new PublicKey(market).toBuffer().copy(bytes, 0);
  owner.publicKey.toBuffer().copy(bytes, 32);
  bytes.writeUInt8(side === 'buy' ? 0 : 1, 64);
  bytes.writeUInt8(outcome === 'yes' ? 0 : 1, 65);
  bytes.writeUInt16LE(priceBps, 66);
  bytes.writeBigUInt64LE(quantity, 68);
  bytes.writeBigUInt64LE(n, 76);
  bytes.writeBigInt64LE(expiry, 84);
  const signature = signMessage(owner, `PMX Order:\n${bytes.toString('hex')}`);
  return {
    orderMessage: {
      market,
      owner: owner.publicKey.toBase58(),
      side: side === 'buy' ? 0 : 1,
      outcome: outcome === 'yes' ? 0 : 1,
      priceBps,
      quantity: quantity.toString(),
      nonce: n.toString(),
      expiry: expiry.toString(),
    },
    signature,
    ...extra,
  };
}
const place = async (
  owner: Keypair,
  market: string,
  side: 'buy' | 'sell',
  outcome: 'yes' | 'no',
  priceBps: number,
  quantity: bigint,
  extra: Json = {},
) => ok('POST', '/v2/clob/orders', order(owner, market, side, outcome, priceBps, quantity, extra));
const USDC = 1_000_000n;

// 1. The operator lists a market.
const market = (
  await ok(
    'POST',
    '/v2/admin/clob/markets',
    {
      title: 'Will the example finish?',
      description: 'A market made by the example script.',
      resolutionRules: 'YES when the script reaches its last step.',
      category: 'examples',
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      yesTicker: 'DONE',
      noTicker: 'STUCK',
    },
    true,
  )
).market as Json;
say(`market ${String(market.id)} (${String(market.marketId)}), account ${String(market.marketPubkey)}, status ${String(market.status)}`);

// 2. Two traders: keys stay here; the faucet gives them SOL and USDC.
const maker = Keypair.generate();
const taker = Keypair.generate();
for (const [who, usdc] of [
  [maker, 300n],
  [taker, 200n],
] as const) {
  await ok('POST', '/v2/dev/faucet', { wallet: who.publicKey.toBase58(), usdc: (usdc * USDC).toString(), sol: '1000000000' });
}
say(`maker ${maker.publicKey.toBase58()}, taker ${taker.publicKey.toBase58()}: funded by the faucet`);

// 3. Deposits (twice each), then the smart wallet is ready.
for (const [who, first, second] of [
  [maker, 150n, 100n],
  [taker, 100n, 50n],
] as const) {
  await write('/v2/clob/account/deposit', { pubkey: who.publicKey.toBase58(), amount: (first * USDC).toString() }, who);
  await write('/v2/clob/account/deposit', { pubkey: who.publicKey.toBase58(), amount: (second * USDC).toString() }, who);
}
const setup = await until('maker ready', async () => {
  const s = await ok('GET', `/v2/clob/account/setup?pubkey=${maker.publicKey.toBase58()}`);
  return s.smartWalletBalance === String(250n * USDC) ? s : undefined;
});
await until('taker deposit indexed', async () => ((await balances(taker)).smartWalletBalance === String(150n * USDC) ? true : undefined));
say(`smart wallets ready: maker ${String(setup.smartWalletBalance)} raw in ${String(setup.smartWallet)}`);

// 4. The maker splits 40 USDC into 40 DONE + 40 STUCK, to be able to ask.
await write('/v2/clob/account/split', { pubkey: maker.publicKey.toBase58(), marketId: market.id, amount: (40n * USDC).toString() }, maker);
await until('split indexed', async () => ((await balances(maker)).markets[0]?.noTokens === String(40n * USDC) ? true : undefined));
say('maker split 40 USDC into 40 YES + 40 NO tokens');

// 5. The maker quotes both outcomes.
const m = market.marketPubkey as string;
const bidYes = await place(maker, m, 'buy', 'yes', 4000, 10n * USDC);
const askYes = await place(maker, m, 'sell', 'yes', 6000, 10n * USDC);
const bidNo = await place(maker, m, 'buy', 'no', 3000, 10n * USDC);
const askNo = await place(maker, m, 'sell', 'no', 7000, 10n * USDC, { postOnly: true });
const book = await ok('GET', `/v2/clob/markets/${String(market.id)}/orderbook`);
say(`maker quotes: YES ${JSON.stringify(book.yes)}; NO ${JSON.stringify(book.no)}`);
const afterQuotes = await balances(maker);

// 6. The taker takes: direct, complementary, market, fok.
const direct = await place(taker, m, 'buy', 'yes', 6500, 4n * USDC);
const comp = await place(taker, m, 'buy', 'yes', 7000, 8n * USDC, { timeInForce: 'ioc' });
await write('/v2/clob/account/split', { pubkey: taker.publicKey.toBase58(), marketId: market.id, amount: (5n * USDC).toString() }, taker);
await until('taker split indexed', async () => ((await balances(taker)).markets[0]?.noTokens === String(5n * USDC) ? true : undefined));
const askYes2 = await place(maker, m, 'sell', 'yes', 5500, 5n * USDC);
const sellComp = await place(taker, m, 'sell', 'no', 4000, 2n * USDC, { orderType: 'market' });
const fok = await place(taker, m, 'buy', 'no', 7000, 100n * USDC, { timeInForce: 'fok' });
for (const [name, r] of Object.entries({ direct, comp, sellComp, fok })) {
  say(
    `${name}: ${String(r.status)}, fills ${JSON.stringify((r.fills as Json[]).map((f) => `${String(f.fillType)} ${String(f.quantity)}@${String(f.priceBps)}`))}`,
  );
}

// 7. Cancels: one (signed "PMX Cancel:<id>"), then all (signed "PMX Cancel All:*:<now>").
const cancelOne = await ok('POST', `/v2/clob/orders/${String(bidYes.orderId)}/cancel`, {
  pubkey: maker.publicKey.toBase58(),
  signature: signMessage(maker, `PMX Cancel:${String(bidYes.orderId)}`),
});
const ts = Math.floor(Date.now() / 1000);
const cancelAll = await ok('POST', '/v2/clob/orders/cancel-all', {
  pubkey: maker.publicKey.toBase58(),
  marketId: '*',
  timestamp: ts,
  signature: signMessage(maker, `PMX Cancel All:*:${ts}`),
});
say(`cancelled ${String(cancelOne.orderId)}, then ${(cancelAll.cancelled as string[]).length} more with cancel-all`);

// 8. The keeper settles every fill on chain (a receipt per fill); then the balances are free again.
const trades = await until(
  'every fill settled',
  async () => {
    const t = (await ok('GET', `/v2/clob/markets/${String(market.id)}/trades`)).trades as Json[];
    return t.every((x) => x.status === 'settled') ? t : undefined;
  },
  30_000,
);
say(
  `${trades.length} fills settled on chain: ${trades.map((t) => `${String(t.fillType)} tx ${String(t.settleTx).slice(0, 8)}…`).join(', ')}`,
);
const makerOrders = (await ok('GET', `/v2/clob/orders?pubkey=${maker.publicKey.toBase58()}`)).orders as Json[];
const takerBalances = await until('taker balances after settlement', async () => {
  const b = await balances(taker);
  return b.totalCommitted === '0' && b.markets[0]?.yesTokens !== '0' ? b : undefined;
});
const positions = await until('taker positions', async () => {
  const p = (await ok('GET', `/v2/clob/positions?pubkey=${taker.publicKey.toBase58()}`)).positions as Json[];
  return p.length > 0 ? p : undefined;
});
const summary = await ok('GET', `/v2/clob/positions/summary?pubkey=${taker.publicKey.toBase58()}`);
say(
  `taker: ${String(takerBalances.markets[0].yesTokens)} raw YES; positions ${JSON.stringify(positions.map((p) => ({ outcome: p.outcome, net: p.netQuantity, cost: p.totalCost, unrealized: p.unrealizedPnl })))}`,
);

// 9. A withdrawal beyond what is free is refused with the exact amounts; a smaller one works.
const tooMuch = await call('POST', '/v2/clob/account/withdraw', {
  pubkey: taker.publicKey.toBase58(),
  amount: (BigInt(takerBalances.withdrawable as string) + 1n).toString(),
});
await write('/v2/clob/account/withdraw', { pubkey: taker.publicKey.toBase58(), amount: (10n * USDC).toString() }, taker);
say(`withdraw beyond withdrawable: ${tooMuch.status} ${String(tooMuch.json.message)}`);

// 10. The operator resolves DONE (YES); both traders redeem their winning tokens into their smart wallets.
await ok('POST', `/v2/admin/clob/markets/${String(market.id)}/resolve`, { outcome: 'yes' }, true);
const redeemed: Json = {};
for (const [name, who] of [
  ['maker', maker],
  ['taker', taker],
] as const) {
  const yes = BigInt(((await balances(who)).markets[0]?.yesTokens as string | undefined) ?? '0');
  if (yes > 0n)
    await write('/v2/clob/account/redeem', { pubkey: who.publicKey.toBase58(), marketId: market.id, amount: yes.toString() }, who);
  redeemed[name] = yes.toString();
}
say(`resolved YES; redeemed ${JSON.stringify(redeemed)} raw winning tokens`);

// 11. Every raw USDC unit: the two wallets and smart wallets, the vault (after resolution it backs
// only the unredeemed winning tokens: 0 once both redeemed) and the fee wallet's gain.
const totals = await until('redemptions indexed', async () => {
  let sum = 0n;
  for (const who of [maker, taker]) {
    const b = await balances(who);
    if (b.markets[0]?.yesTokens !== '0') return undefined;
    sum += BigInt(b.smartWalletBalance as string) + BigInt(b.walletBalance as string);
  }
  return sum;
});
const vaultLeft = await tokenAmount(new PublicKey(market.marketPubkey as string));
const feeGain = (await tokenAmount(feeWallet)) - feeBefore;
say(`traders ${totals} + vault ${vaultLeft} + fee wallet ${feeGain} = ${totals + vaultLeft + feeGain} raw (faucet gave ${500n * USDC})`);

console.log(
  JSON.stringify({
    market,
    setup,
    quotes: { bidYes, askYes, bidNo, askNo, askYes2 },
    afterQuotes,
    fills: { direct, comp, sellComp, fok },
    cancelOne,
    cancelAll,
    trades,
    makerOrders,
    takerBalances,
    tooMuch,
    positions,
    summary,
    redeemed,
    accounting: { traders: totals.toString(), vault: vaultLeft.toString(), fees: feeGain.toString(), minted: (500n * USDC).toString() },
  }),
);
