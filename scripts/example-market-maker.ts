/**
 * `npm run example:market-maker`: a market maker's bot on the orderbook, written with @pmx/client
 * only (its REST client, signing helpers and transaction helpers) and @solana/web3.js for the
 * keypair and the cluster. Its key is generated here and never sent. It funds itself from the dev
 * faucet, deposits into its smart wallet, quotes five bid levels on each outcome of a market in
 * one batch (a YES bid at p and a NO bid at q quote the YES market at p / 10000 − q), requotes its
 * best YES bid with replace, arms the dead-man's switch and then beats it every second — forever:
 * stop it (Ctrl-C, or kill -9) and the daemon cancels its orders once the timeout passes.
 *
 * MARKET_ID names the market (default: the first active orderbook market); HEARTBEAT_TIMEOUT_SEC
 * the switch's timeout (default 10). Narrates on stderr; prints JSON lines on stdout: one
 * `{"quoted": …}` once its quotes rest, then `{"beat": <deadline>}` per accepted heartbeat
 * (test/e2e/market-maker.e2e.test.ts runs this very script and kills it).
 */
import { ClobTrader, createPmxClient, isPlacement, keypairSigner, unwrap, type OrderRequest } from '@pmx/client';
import { signAndSend } from '@pmx/client/solana';
import { Connection, Keypair } from '@solana/web3.js';

const API = process.env.API_URL ?? 'http://127.0.0.1:8080';
const TIMEOUT_SEC = Number(process.env.HEARTBEAT_TIMEOUT_SEC ?? 10);
const USDC = 1_000_000n;
const say = (text: string) => process.stderr.write(`• ${text}\n`);
const emit = (line: unknown) => process.stdout.write(`${JSON.stringify(line)}\n`);

const api = createPmxClient({ baseUrl: API });
const config = (await unwrap(api.GET('/v2/config'))).data;
const conn = new Connection(config.rpcUrl as string, 'confirmed');
const marketId =
  process.env.MARKET_ID ?? (await unwrap(api.GET('/v2/clob/markets', { params: { query: { status: 'active' } } }))).markets[0]?.market.id;
if (!marketId) throw new Error('no active orderbook market: create one (docs/family-c.md), or set MARKET_ID');
const { market } = await unwrap(api.GET('/v2/clob/markets/{id}', { params: { path: { id: marketId } } }));

// The bot's wallet: SOL and USDC from the dev faucet, 100 USDC into its smart wallet.
const wallet = Keypair.generate();
const mm = new ClobTrader(api, keypairSigner(wallet));
await unwrap(api.POST('/v2/dev/faucet', { body: { wallet: mm.address, usdc: String(120n * USDC), sol: '2000000000' } }));
const { transaction } = await unwrap(api.POST('/v2/clob/account/deposit', { body: { pubkey: mm.address, amount: String(100n * USDC) } }));
await signAndSend(conn, transaction, [wallet]);
for (;;) {
  const balances = await unwrap(api.GET('/v2/clob/account/balances', { params: { query: { pubkey: mm.address } } }));
  if (balances.smartWalletBalance === String(100n * USDC)) break;
  await new Promise((r) => setTimeout(r, 100));
}
say(`maker ${mm.address} deposited 100 USDC; quoting "${market.title}"`);

// Five levels a side, one request: YES bids 40.00–36.00 %, NO bids 30.00–26.00 %, 2 tokens each.
const level = (outcome: 'yes' | 'no', i: number): OrderRequest => ({
  market: market.marketPubkey,
  side: 'buy',
  outcome,
  priceBps: (outcome === 'yes' ? 4000 : 3000) - 100 * i,
  quantity: 2n * USDC,
  postOnly: true,
});
const results = await mm.placeBatch([0, 1, 2, 3, 4].flatMap((i) => [level('yes', i), level('no', i)]));
const orderIds = results.map((r) => {
  if (!isPlacement(r)) throw new Error(`quote refused: ${r.error} ${r.message}`);
  return r.orderId;
});
// Requote: the best YES bid moves up to 41.00 % in one matcher operation (the book never shows neither).
const replaced = await mm.replace(orderIds[0]!, { ...level('yes', 0), priceBps: 4100 });
orderIds[0] = replaced.placement.orderId;
say(`10 quotes resting; best YES bid requoted to 4100 bps (order ${replaced.placement.orderId})`);

// The dead-man's switch: armed, then beaten every second while this process lives.
const deadline = await mm.heartbeat(TIMEOUT_SEC);
emit({ quoted: { maker: mm.address, marketId: market.id, orderIds, deadline, timeoutSec: TIMEOUT_SEC } });
say(`heartbeat armed: ${TIMEOUT_SEC} s; beating every second until stopped`);
for (;;) {
  await new Promise((r) => setTimeout(r, 1_000));
  emit({ beat: await mm.heartbeat(TIMEOUT_SEC) });
}
