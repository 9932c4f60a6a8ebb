/**
 * `npm run example:family-c`: the orderbook end to end against a running daemon, as a trader's bot
 * would do it with @pmx/client (typed REST calls, its signing helpers, @pmx/client/solana for the
 * transactions) and @solana/web3.js — keypairs generated here (never sent to the service), the dev
 * faucet, deposits into the smart wallet, signed orders of every kind producing the three fill
 * types, cancels, the book and the trades, every fill settled on chain by the keeper, positions and
 * PnL, a withdrawal refused beyond what is free, resolution, redemption, and every raw USDC unit
 * accounted for.
 *
 * The operator step (creating and resolving the market) needs the admin token: ADMIN_TOKEN, or
 * the file DATA_DIR/admin-token (default ./data/admin-token) the daemon wrote.
 * Narrates on stderr; prints one JSON summary on stdout (test/e2e/family-c.e2e.test.ts runs this
 * very script, and the same flow without the client, test/e2e/fixtures/independent-family-c.ts,
 * and asserts on both). API_URL defaults to http://127.0.0.1:8080; FAUCET_URL (default API_URL) is
 * the API node with the dev faucet, if another (docs/operations.md), e.g. 8081.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ClobTrader, createPmxClient, keypairSigner, unwrap, type OrderRequest } from '@pmx/client';
import { signAndSend } from '@pmx/client/solana';
import { Connection, Keypair, PublicKey } from '@solana/web3.js';

const API = process.env.API_URL ?? 'http://127.0.0.1:8080';
const ADMIN = process.env.ADMIN_TOKEN ?? readFileSync(path.join(process.env.DATA_DIR ?? './data', 'admin-token'), 'utf8').trim();
const api = createPmxClient({ baseUrl: API });
const admin = createPmxClient({ baseUrl: API, adminToken: ADMIN });
const faucet = createPmxClient({ baseUrl: process.env.FAUCET_URL ?? API });
const say = (text: string) => process.stderr.write(`• ${text}\n`);

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
  await unwrap(api.GET('/v2/config')).catch((error: Error) => {
    say(`cannot reach the daemon at ${API} (${error.message}): start it with \`npm start\`, or set API_URL`);
    process.exit(1);
  })
).data as { rpcUrl: string; usdcMint: string; protocolFeeWallet: string; programs?: { exchange?: string } };
const conn = new Connection(config.rpcUrl, 'confirmed');
const usdcMint = new PublicKey(config.usdcMint);
/** What `owner` holds of `mint` across its token accounts, read from the cluster. */
const tokenAmount = async (owner: PublicKey): Promise<bigint> => {
  const accounts = await conn.getParsedTokenAccountsByOwner(owner, { mint: usdcMint });
  return accounts.value.reduce(
    (s, a) => s + BigInt((a.account.data.parsed as { info: { tokenAmount: { amount: string } } }).info.tokenAmount.amount),
    0n,
  );
};
const feeWallet = new PublicKey(config.protocolFeeWallet);
const feeBefore = await tokenAmount(feeWallet);
say(`daemon ${API}, cluster ${config.rpcUrl}, exchange program ${String(config.programs?.exchange)}`);

/** A smart-wallet write: the API builds the transaction, the owner signs and sends it (@pmx/client/solana). */
async function land(answer: Promise<{ data?: { transaction: string }; error?: unknown; response: Response }>, signer: Keypair) {
  return signAndSend(conn, (await unwrap(answer)).transaction, [signer]);
}
const balances = async (who: Keypair) =>
  unwrap(api.GET('/v2/clob/account/balances', { params: { query: { pubkey: who.publicKey.toBase58() } } }));
const USDC = 1_000_000n;

// 1. The operator lists a market.
const { market } = await unwrap(
  admin.POST('/v2/admin/clob/markets', {
    body: {
      title: 'Will the example finish?',
      description: 'A market made by the example script.',
      resolutionRules: 'YES when the script reaches its last step.',
      category: 'examples',
      endDate: new Date(Date.now() + 86_400_000).toISOString(),
      yesTicker: 'DONE',
      noTicker: 'STUCK',
    },
  }),
);
say(`market ${market.id} (${market.marketId}), account ${market.marketPubkey}, status ${market.status}`);

// 2. Two traders: keys stay here (each signs through @pmx/client's keypairSigner); the faucet gives them SOL and USDC.
const makerKey = Keypair.generate();
const takerKey = Keypair.generate();
const maker = new ClobTrader(api, keypairSigner(makerKey));
const taker = new ClobTrader(api, keypairSigner(takerKey));
for (const [who, usdc] of [
  [makerKey, 300n],
  [takerKey, 200n],
] as const) {
  await unwrap(
    faucet.POST('/v2/dev/faucet', { body: { wallet: who.publicKey.toBase58(), usdc: (usdc * USDC).toString(), sol: '1000000000' } }),
  );
}
say(`maker ${maker.address}, taker ${taker.address}: funded by the faucet`);

// 3. Deposits (twice each), then the smart wallet is ready.
for (const [who, first, second] of [
  [makerKey, 150n, 100n],
  [takerKey, 100n, 50n],
] as const) {
  await land(api.POST('/v2/clob/account/deposit', { body: { pubkey: who.publicKey.toBase58(), amount: (first * USDC).toString() } }), who);
  await land(api.POST('/v2/clob/account/deposit', { body: { pubkey: who.publicKey.toBase58(), amount: (second * USDC).toString() } }), who);
}
const setup = await until('maker ready', async () => {
  const s = await unwrap(api.GET('/v2/clob/account/setup', { params: { query: { pubkey: maker.address } } }));
  return s.smartWalletBalance === String(250n * USDC) ? s : undefined;
});
await until('taker deposit indexed', async () =>
  (await balances(takerKey)).smartWalletBalance === String(150n * USDC) ? true : undefined,
);
say(`smart wallets ready: maker ${String(setup.smartWalletBalance)} raw in ${String(setup.smartWallet)}`);

// 4. The maker splits 40 USDC into 40 DONE + 40 STUCK, to be able to ask.
await land(
  api.POST('/v2/clob/account/split', { body: { pubkey: maker.address, marketId: market.id, amount: (40n * USDC).toString() } }),
  makerKey,
);
await until('split indexed', async () => ((await balances(makerKey)).markets[0]?.noTokens === String(40n * USDC) ? true : undefined));
say('maker split 40 USDC into 40 YES + 40 NO tokens');

// 5. The maker quotes both outcomes.
const m = market.marketPubkey;
const order = (
  side: 'buy' | 'sell',
  outcome: 'yes' | 'no',
  priceBps: number,
  quantity: bigint,
  extra: Partial<OrderRequest> = {},
): OrderRequest => ({
  market: m,
  side,
  outcome,
  priceBps,
  quantity,
  ...extra,
});
const bidYes = await maker.place(order('buy', 'yes', 4000, 10n * USDC));
const askYes = await maker.place(order('sell', 'yes', 6000, 10n * USDC));
const bidNo = await maker.place(order('buy', 'no', 3000, 10n * USDC));
const askNo = await maker.place(order('sell', 'no', 7000, 10n * USDC, { postOnly: true }));
const book = await unwrap(api.GET('/v2/clob/markets/{id}/orderbook', { params: { path: { id: market.id } } }));
say(`maker quotes: YES ${JSON.stringify(book.yes)}; NO ${JSON.stringify(book.no)}`);
const afterQuotes = await balances(makerKey);

// 6. The taker takes: direct, complementary, market, fok.
const direct = await taker.place(order('buy', 'yes', 6500, 4n * USDC));
const comp = await taker.place(order('buy', 'yes', 7000, 8n * USDC, { timeInForce: 'ioc' }));
await land(
  api.POST('/v2/clob/account/split', { body: { pubkey: taker.address, marketId: market.id, amount: (5n * USDC).toString() } }),
  takerKey,
);
await until('taker split indexed', async () => ((await balances(takerKey)).markets[0]?.noTokens === String(5n * USDC) ? true : undefined));
const askYes2 = await maker.place(order('sell', 'yes', 5500, 5n * USDC));
const sellComp = await taker.place(order('sell', 'no', 4000, 2n * USDC, { orderType: 'market' }));
const fok = await taker.place(order('buy', 'no', 7000, 100n * USDC, { timeInForce: 'fok' }));
for (const [name, r] of Object.entries({ direct, comp, sellComp, fok })) {
  say(`${name}: ${r.status}, fills ${JSON.stringify(r.fills.map((f) => `${f.fillType} ${f.quantity}@${f.priceBps}`))}`);
}

// 7. Cancels: one (signed "PMX Cancel:<id>"), then all (signed "PMX Cancel All:*:<now>").
const cancelOne = await maker.cancel(bidYes.orderId);
const cancelAll = await maker.cancelAll('*');
say(`cancelled ${cancelOne.orderId}, then ${cancelAll.cancelled.length} more with cancel-all`);

// 8. The keeper settles every fill on chain (a receipt per fill); then the balances are free again.
const trades = await until(
  'every fill settled',
  async () => {
    const t = (await unwrap(api.GET('/v2/clob/markets/{id}/trades', { params: { path: { id: market.id } } }))).trades;
    return t.every((x) => x.status === 'settled') ? t : undefined;
  },
  30_000,
);
say(`${trades.length} fills settled on chain: ${trades.map((t) => `${t.fillType} tx ${String(t.settleTx).slice(0, 8)}…`).join(', ')}`);
const makerOrders = (await maker.orders()).orders;
const takerBalances = await until('taker balances after settlement', async () => {
  const b = await balances(takerKey);
  return b.totalCommitted === '0' && b.markets[0]?.yesTokens !== '0' ? b : undefined;
});
// Positions are applied by a job after settlement: wait until they account for every token the taker holds.
const held: Record<string, string> = { yes: takerBalances.markets[0]!.yesTokens, no: takerBalances.markets[0]!.noTokens };
const positions = await until('taker positions', async () => {
  const p = (await unwrap(api.GET('/v2/clob/positions', { params: { query: { pubkey: taker.address } } }))).positions;
  const caughtUp = Object.entries(held).every(([o, n]) => n === '0' || p.some((x) => x.outcome === o && x.netQuantity === n));
  return caughtUp ? p : undefined;
});
const summary = await unwrap(api.GET('/v2/clob/positions/summary', { params: { query: { pubkey: taker.address } } }));
say(
  `taker: ${String(takerBalances.markets[0]!.yesTokens)} raw YES; positions ${JSON.stringify(positions.map((p) => ({ outcome: p.outcome, net: p.netQuantity, cost: p.totalCost, unrealized: p.unrealizedPnl })))}`,
);

// 9. A withdrawal beyond what is free is refused with the exact amounts; a smaller one works.
const refusal = await api.POST('/v2/clob/account/withdraw', {
  body: { pubkey: taker.address, amount: (BigInt(takerBalances.withdrawable) + 1n).toString() },
});
const tooMuch = { status: refusal.response.status, json: refusal.error };
await land(api.POST('/v2/clob/account/withdraw', { body: { pubkey: taker.address, amount: (10n * USDC).toString() } }), takerKey);
say(`withdraw beyond withdrawable: ${tooMuch.status} ${String(tooMuch.json?.message)}`);

// 10. The operator resolves DONE (YES); both traders redeem their winning tokens into their smart wallets.
await unwrap(admin.POST('/v2/admin/clob/markets/{id}/resolve', { params: { path: { id: market.id } }, body: { outcome: 'yes' } }));
const redeemed: Record<string, string> = {};
for (const [name, who] of [
  ['maker', makerKey],
  ['taker', takerKey],
] as const) {
  const yes = BigInt((await balances(who)).markets[0]?.yesTokens ?? '0');
  if (yes > 0n)
    await land(
      api.POST('/v2/clob/account/redeem', { body: { pubkey: who.publicKey.toBase58(), marketId: market.id, amount: yes.toString() } }),
      who,
    );
  redeemed[name] = yes.toString();
}
say(`resolved YES; redeemed ${JSON.stringify(redeemed)} raw winning tokens`);

// 11. Every raw USDC unit: the two wallets and smart wallets, the vault (after resolution it backs
// only the unredeemed winning tokens: 0 once both redeemed) and the fee wallet's gain.
const totals = await until('redemptions indexed', async () => {
  let sum = 0n;
  for (const who of [makerKey, takerKey]) {
    const b = await balances(who);
    if (b.markets[0]?.yesTokens !== '0') return undefined;
    sum += BigInt(b.smartWalletBalance) + BigInt(b.walletBalance);
  }
  return sum;
});
const vaultLeft = await tokenAmount(new PublicKey(market.marketPubkey));
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
