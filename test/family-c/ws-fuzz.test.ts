/**
 * The WebSocket port under fast-check: each run opens connections on both channels and sends
 * them any frames (hostile JSON commands, random text and bytes, binary, oversized, bursts).
 * Every frame is answered (PONG, an ack, a book, an error) or the connection is closed with a
 * documented code; the daemon stays up, a control client keeps receiving its market's events in
 * seq order, the book and the orders are unchanged, and once the fuzzed connections close the
 * server holds only the control client's socket.
 */
import { Keypair } from '@solana/web3.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { WS_CLOSE } from '../../src/services/family-c/ws/ws-protocol.js';
import { createClobMarket, depositedTrader, get, openClobHarness, place, USDC, waitFor, type CHarness } from './family-c.harness.js';
import { WsClient, wsUrl } from './ws-client.js';

let h: CHarness;
let market: Awaited<ReturnType<typeof createClobMarket>>;
beforeAll(async () => {
  h = await openClobHarness();
  market = await createClobMarket(h);
});
afterAll(async () => h?.close());

const DOCUMENTED = new Set<number>([WS_CLOSE.tooBig, WS_CLOSE.tooFast, WS_CLOSE.slowConsumer, WS_CLOSE.idle]);
const pubkey = Keypair.generate().publicKey.toBase58();

const ref = () => fc.constantFrom(market.id, market.marketId, market.id.toUpperCase(), 'nope', '*', '', '../x', 'x'.repeat(81), '\u0000');
const command = () =>
  fc.record(
    {
      type: fc.constantFrom('subscribe', 'unsubscribe', 'Subscribe', 'ping', null, 1),
      markets: fc.oneof(fc.array(ref(), { maxLength: 55 }), ref(), fc.constant({}), fc.constant(null)),
      pubkey: fc.constantFrom(pubkey, 'So11111111111111111111111111111111111111112', 'x', '', 5),
      extra: fc.string({ maxLength: 10 }),
    },
    { requiredKeys: [] },
  );
type Frame = { text: string } | { binary: Uint8Array };
const frame = (): fc.Arbitrary<Frame> =>
  fc.oneof(
    { weight: 4, arbitrary: command().map((c) => ({ text: JSON.stringify(c) })) },
    { weight: 2, arbitrary: fc.string({ maxLength: 200 }).map((text) => ({ text })) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 50 }).map((text) => ({ text })) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom('PING', 'ping', 'PONG', '{}', '[]', 'null', '{"type":"subscribe","markets":["a"],"pubkey":{}}')
        .map((text) => ({ text })),
    },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((binary) => ({ binary })) },
    { weight: 1, arbitrary: fc.integer({ min: 4_097, max: 9_000 }).map((n) => ({ text: 'x'.repeat(n) })) },
  );

/** Sends the frames and waits until each has an answer or the socket closed; returns how it ended. */
async function drive(channel: 'market' | 'user', frames: Frame[]): Promise<{ closedWith?: number; answers: number }> {
  const c = await WsClient.open(wsUrl(h.daemon.url!, channel));
  for (const f of frames) c.socket.send('text' in f ? f.text : f.binary);
  c.send('PING'); // a marker: when its PONG (the last one) is answered, every frame before it was handled
  const pongs = frames.filter((f) => 'text' in f && f.text.trim().toUpperCase() === 'PING').length + 1;
  const settled = await Promise.race([
    c.closed.then((r) => ({ closedWith: r.code })),
    c.waitFor(() => c.frames.filter((x) => x === 'PONG').length === pongs, 10_000).then(() => ({})),
  ]);
  const answers = c.frames.length;
  if (c.socket.readyState === WebSocket.OPEN) c.close();
  await c.closed;
  return { ...settled, answers };
}

describe('WebSocket fuzz', () => {
  it('any frames on either channel leave the daemon serving and its state unchanged', async () => {
    const maker = await depositedTrader(h, 50n * USDC);
    await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4000, quantity: 2n * USDC });
    const control = await WsClient.open(wsUrl(h.daemon.url!, 'market'));
    await control.command({ type: 'subscribe', markets: [market.id] });
    const controlBook = await control.waitFor((f) => typeof f === 'object' && f.event === 'book');
    const keepAlive = setInterval(() => control.send('PING'), 5_000);
    const bookBefore = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
    const ordersBefore = (await get(h, `/v2/clob/orders?pubkey=${maker.publicKey.toBase58()}`)).json();
    const closes = new Map<number, number>();
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('market' as const, 'user' as const),
          fc.oneof(fc.array(frame(), { minLength: 1, maxLength: 15 }), fc.array(frame(), { minLength: 21, maxLength: 30 })),
          async (channel, frames) => {
            const { closedWith, answers } = await drive(channel, frames);
            if (closedWith !== undefined) {
              expect(DOCUMENTED.has(closedWith)).toBe(true);
              closes.set(closedWith, (closes.get(closedWith) ?? 0) + 1);
            } else {
              expect(answers).toBeGreaterThanOrEqual(frames.length + 1); // one answer at least per frame, plus the marker's PONG
            }
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      clearInterval(keepAlive);
    }
    expect(closes.get(WS_CLOSE.tooBig) ?? 0).toBeGreaterThan(0);
    expect(closes.get(WS_CLOSE.tooFast) ?? 0).toBeGreaterThan(0);

    // Unchanged: the book, the orders; alive: the REST API, the control client's feed (seq order, nothing lost).
    expect((await get(h, '/health')).statusCode).toBe(200);
    const bookAfter = (await get(h, `/v2/clob/markets/${market.id}/orderbook`)).json();
    expect({ ...bookAfter, timestamp: 0 }).toEqual({ ...bookBefore, timestamp: 0 });
    expect((await get(h, `/v2/clob/orders?pubkey=${maker.publicKey.toBase58()}`)).json()).toEqual(ordersBefore);
    await place(h, maker, { market: market.marketPubkey, side: 'buy', outcome: 'yes', priceBps: 4100, quantity: 1n * USDC });
    const change = await control.waitFor((f) => typeof f === 'object' && f.event === 'price_change');
    expect(change).toMatchObject({ seq: controlBook.seq + 1, price: 4100, size: '1000000' });
    // Sockets closed by the clients finish their close handshake; then only the control client is left.
    await waitFor('fuzzed sockets gone', async () => (h.app.websocketServer.clients.size === 1 ? true : undefined));
    control.close();
  }, 240_000);
});
