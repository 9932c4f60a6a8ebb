/**
 * Issue 30, the dead-man's switch on SQLite and PostgreSQL: `POST /v2/clob/heartbeat` arms a
 * per-owner deadline; a newer heartbeat moves it, a replayed or older one is refused; when it
 * passes, every resting order of the owner (every market) is cancelled `heartbeat_expired` and the
 * user channel says so; disarmed owners keep theirs; a deadline that passed while no daemon ran
 * (a row already due) fires on the sweep; bad input answers a 4xx in the Family C envelope.
 */
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heartbeatText } from '../../src/domain/signed-message.js';
import { signText } from '../helpers/sign.js';
import { CLOB_DATABASES, openClobHarnessOn } from './dialect-harness.js';
import { createClobMarket, depositedTrader, get, place, post, USDC, waitFor, type CHarness } from './family-c.harness.js';
import { WsClient, wsUrl, type Frame } from './ws-client.js';

const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const now = () => Math.floor(Date.now() / 1000);
const beat = (signer: Keypair, timeoutSec: number, timestamp = now(), pubkey = signer.publicKey.toBase58()) => ({
  pubkey,
  timeoutSec,
  timestamp,
  signature: b64(signText(signer, heartbeatText(timeoutSec, timestamp))),
});
const cancelledEvent = (id: string) => (f: Frame | string) => typeof f === 'object' && f.event === 'order:cancelled' && f.order?.id === id;

describe.each(CLOB_DATABASES)('heartbeat on $name', ({ name, available }) => {
  let h: CHarness;
  beforeAll(async () => {
    if (available) h = await openClobHarnessOn(name);
  });
  afterAll(async () => h?.close());
  const send = (body: unknown) => post(h, '/v2/clob/heartbeat', body);
  const orderOf = async (id: string) => (await get(h, `/v2/clob/orders/${id}`)).json().order;

  it.skipIf(!available)(
    'a newer heartbeat moves the deadline; when it passes, every resting order is cancelled heartbeat_expired',
    async () => {
      const [one, two] = [await createClobMarket(h), await createClobMarket(h)];
      const bot = await depositedTrader(h, 20n * USDC);
      const calm = await depositedTrader(h, 20n * USDC);
      const bid = (who: Keypair, market: string) => place(h, who, { market, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: USDC });
      const orders = [await bid(bot, one.marketPubkey), await bid(bot, two.marketPubkey)];
      const kept = await bid(calm, one.marketPubkey);
      const ws = await WsClient.open(wsUrl(h.daemon.url!, 'user'));
      expect((await ws.command({ type: 'subscribe', pubkey: bot.publicKey.toBase58() })).event).toBe('subscribed');

      const first = beat(bot, 5, now() - 2);
      const armed = await send(first);
      expect(armed.statusCode, armed.body).toBe(200);
      expect(armed.json().deadline).toBeGreaterThanOrEqual(now() + 4);
      // The calm owner arms and disarms: its deadline, due as soon as the bot's, never fires.
      expect((await send(beat(calm, 5, now() - 2))).statusCode).toBe(200);
      expect((await send(beat(calm, 0))).json()).toEqual({ deadline: null });

      // Replayed, or older than the last accepted: refused, the deadline unchanged.
      expect((await send(first)).json()).toMatchObject({ error: 'STALE_HEARTBEAT' });
      expect((await send(beat(bot, 300, now() - 3))).statusCode).toBe(409);
      await new Promise((r) => setTimeout(r, 2_000));
      const moved = await send(beat(bot, 5));
      expect(moved.statusCode, moved.body).toBe(200);
      const deadline = moved.json().deadline as number;

      for (const o of orders) {
        const frame = (await ws.waitFor(cancelledEvent(o.orderId), 15_000)) as Frame;
        expect(frame.order.cancelReason).toBe('heartbeat_expired');
      }
      for (const o of orders) {
        const read = await orderOf(o.orderId);
        expect(read).toMatchObject({ status: 'cancelled', cancelReason: 'heartbeat_expired' });
        // Not before the deadline the newer heartbeat set (the first one's passed 2 s earlier).
        expect(Date.parse(read.updatedAt)).toBeGreaterThanOrEqual((deadline - 1) * 1000);
      }
      expect((await orderOf(kept.orderId)).status).toBe('open');
      ws.close();
    },
    60_000,
  );

  it.skipIf(!available)(
    'a deadline that passed while no daemon ran fires on the sweep',
    async () => {
      const market = await createClobMarket(h);
      const bot = await depositedTrader(h, 10n * USDC);
      const order = await place(h, bot, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 3000, quantity: USDC });
      // As a stopped daemon leaves it: an armed row whose deadline is long past.
      await h.daemon.db.db
        .insertInto('clob_heartbeats')
        .values({
          owner: bot.publicKey.toBase58(),
          signed_at: now() - 3600,
          timeout_sec: 30,
          deadline_ms: Date.now() - 3_570_000,
          updated_at: new Date().toISOString(),
        })
        .execute();
      await waitFor(
        'the due deadline fired',
        async () => ((await orderOf(order.orderId)).status === 'cancelled' ? true : undefined),
        15_000,
      );
      expect((await orderOf(order.orderId)).cancelReason).toBe('heartbeat_expired');
      const row = await h.daemon.db.db.selectFrom('clob_heartbeats').selectAll().executeTakeFirstOrThrow();
      expect(row.deadline_ms).toBeNull();
    },
    60_000,
  );

  it.skipIf(!available)('refuses bad input with a 4xx in the Family C envelope', async () => {
    const owner = Keypair.generate();
    const cases: Array<[string, unknown, number, string?]> = [
      ['timeout below 5', beat(owner, 4), 400, 'INVALID_TIMEOUT'],
      ['timeout above 300', beat(owner, 301), 400],
      ['negative timeout', beat(owner, -1), 400],
      ['fractional timeout', { ...beat(owner, 5), timeoutSec: 5.5 }, 400],
      ['another key signed', beat(Keypair.generate(), 30, now(), owner.publicKey.toBase58()), 403, 'INVALID_SIGNATURE'],
      ['signed another timeout', { ...beat(owner, 30), timeoutSec: 60 }, 403, 'INVALID_SIGNATURE'],
      ['stale timestamp', beat(owner, 30, now() - 61 - 5), 403, 'SIGNATURE_EXPIRED'],
      ['future timestamp', beat(owner, 30, now() + 120), 403, 'SIGNATURE_EXPIRED'],
      ['not a pubkey', { ...beat(owner, 30), pubkey: 'x' }, 400],
      ['no signature', { ...beat(owner, 30), signature: undefined }, 400],
      ['timestamp as text', { ...beat(owner, 30), timestamp: 'now' }, 400],
    ];
    for (const [what, body, status, code] of cases) {
      const res = await send(body);
      expect(res.statusCode, what).toBe(status);
      expect(res.json(), what).toMatchObject({ error: code ?? expect.any(String), message: expect.any(String) });
    }
  });
});
