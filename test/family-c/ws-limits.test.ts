/**
 * Bad input and abuse on real sockets: unknown markets, malformed JSON, binary frames, too many
 * subscriptions, too many frames, frames over 4 KB, silence, a client that stops reading, upgrades
 * to paths that are not WebSockets. Each gets an `error` frame or its documented close code
 * (docs/websockets.md); the daemon keeps serving everyone else. The idle timeout and the send
 * buffer bound are lowered here so that the test runs in seconds; so is the HTTP request timeout,
 * which must not apply to upgraded connections.
 */
import { Keypair } from '@solana/web3.js';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { ClobEventBus } from '../../src/services/family-c/events/event-bus.js';
import { WS_CLOSE } from '../../src/services/family-c/ws/ws-protocol.js';
import { TEST_REDIS_URL } from '../helpers/redis.js';
import { createClobMarket, openClobHarness, type CHarness } from './family-c.harness.js';
import { WsClient, wsUrl } from './ws-client.js';

let h: CHarness;
let redis: Redis;
let market: Awaited<ReturnType<typeof createClobMarket>>;
beforeAll(async () => {
  h = await openClobHarness({ WS_IDLE_TIMEOUT_MS: '1500', WS_MAX_BUFFERED_BYTES: '65536', HTTP_REQUEST_TIMEOUT_MS: '1000' });
  redis = new Redis(TEST_REDIS_URL);
  market = await createClobMarket(h);
});
afterAll(async () => {
  redis?.disconnect();
  await h?.close();
});

const open = (channel: 'market' | 'user') => WsClient.open(wsUrl(h.daemon.url!, channel));
const pubkey = () => Keypair.generate().publicKey.toBase58();

describe('WebSocket bad input', () => {
  it('answers unknown markets, malformed JSON, binary frames and a missing pubkey with error frames and stays open', async () => {
    const c = await open('market');
    expect(await c.command({ type: 'subscribe', markets: [market.marketId, 'no-such-market'] })).toMatchObject({
      event: 'error',
      code: 'UNKNOWN_MARKET',
      markets: ['no-such-market'],
    });
    expect(await c.command('{"type":"subscribe",')).toMatchObject({
      event: 'error',
      code: 'INVALID_MESSAGE',
      message: expect.stringMatching(/^Malformed JSON/),
    });
    const from = c.frames.length;
    c.socket.send(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
    expect(await c.waitFor((f) => typeof f === 'object', 5_000, from)).toMatchObject({ event: 'error', code: 'BINARY_NOT_SUPPORTED' });
    // Nothing was subscribed by the refused command: the valid market is still free to subscribe.
    expect(await c.command({ type: 'subscribe', markets: [market.marketId] })).toEqual({ event: 'subscribed', markets: [market.id] });
    const u = await open('user');
    expect(await u.command({ type: 'subscribe', markets: ['*'] })).toMatchObject({
      event: 'error',
      message: expect.stringMatching(/pubkey is required/),
    });
    for (const client of [c, u]) client.close();
  });

  it('refuses a 51st subscription and keeps the 50 (one pubkey each, sent slower than the rate limit)', async () => {
    const u = await open('user');
    const keys = Array.from({ length: 51 }, pubkey);
    for (const key of keys.slice(0, 50)) {
      expect((await u.command({ type: 'subscribe', pubkey: key })).event).toBe('subscribed');
      await new Promise((r) => setTimeout(r, 55)); // under 20 frames per second
    }
    expect(await u.command({ type: 'subscribe', pubkey: keys[50] })).toMatchObject({ event: 'error', code: 'TOO_MANY_SUBSCRIPTIONS' });
    // The 50 still receive their events; the refused one does not.
    const bus = new ClobEventBus(redis, h.prefix, pino({ level: 'silent' }));
    await bus.publishUser([keys[50]!, keys[49]!].map((owner) => ({ event: 'balance:update', owner, balance: {}, timestamp: 1 })));
    expect(await u.waitFor((f) => typeof f === 'object' && f.event === 'balance:update')).toMatchObject({ owner: keys[49] });
    expect(u.events.filter((f) => f.event === 'balance:update')).toHaveLength(1);
    u.close();
  });

  it('closes with 4029 on the 21st frame within a second', async () => {
    const c = await open('market');
    for (let i = 0; i < 25; i++) c.send('PING');
    expect(await c.closed).toEqual({ code: WS_CLOSE.tooFast, reason: 'more than 20 messages per second' });
    expect(c.frames.filter((f) => f === 'PONG').length).toBeLessThanOrEqual(20);
  });

  it('reports open connections by channel and closes by code in /metrics', async () => {
    const metric = async (line: RegExp) => Number(line.exec(await (await fetch(`${h.daemon.url}/metrics`)).text())?.[1] ?? NaN);
    const before = await metric(/^pmx_ws_closes_total\{code="4029"\} (\d+)$/m);
    const open1 = await open('market');
    const open2 = await open('user');
    expect(await metric(/^pmx_ws_connections\{channel="market"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    expect(await metric(/^pmx_ws_connections\{channel="user"\} (\d+)$/m)).toBeGreaterThanOrEqual(1);
    const noisy = await open('market');
    for (let i = 0; i < 25; i++) noisy.send('PING');
    expect((await noisy.closed).code).toBe(WS_CLOSE.tooFast);
    expect(await metric(/^pmx_ws_closes_total\{code="4029"\} (\d+)$/m)).toBe((Number.isNaN(before) ? 0 : before) + 1);
    for (const client of [open1, open2]) client.close();
  });

  it('closes with 1009 on a frame over 4 KB, and accepts one of exactly 4 KB', async () => {
    const ok = await open('market');
    const padded = JSON.stringify({ type: 'subscribe', markets: [market.id], pad: '' });
    const exact = padded.replace('"pad":""', `"pad":"${'x'.repeat(4096 - padded.length)}"`);
    expect(Buffer.byteLength(exact)).toBe(4096);
    expect(await ok.command(exact)).toEqual({ event: 'subscribed', markets: [market.id] });
    const big = await open('market');
    big.send(`PING${' '.repeat(4093)}`);
    expect((await big.closed).code).toBe(WS_CLOSE.tooBig);
    ok.close();
  });

  it('closes a silent connection with 4008 and keeps one that sends PING, longer than the HTTP request timeout', async () => {
    const silent = await open('market');
    const pinging = await open('market');
    const timer = setInterval(() => pinging.send('PING'), 400);
    try {
      const started = Date.now();
      expect((await silent.closed).code).toBe(WS_CLOSE.idle);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1_400);
      await new Promise((r) => setTimeout(r, 2_500)); // > 2× HTTP_REQUEST_TIMEOUT_MS and > the idle timeout
      expect(pinging.socket.readyState).toBe(WebSocket.OPEN);
      expect(pinging.frames.filter((f) => f === 'PONG').length).toBeGreaterThan(5);
    } finally {
      clearInterval(timer);
      pinging.close();
    }
  });

  it('drops a client that stops reading (4010) while a reading client gets every event', async () => {
    const owner = pubkey();
    const slow = await open('user');
    const fast = await open('user');
    for (const c of [slow, fast]) await c.command({ type: 'subscribe', pubkey: owner });
    // Both keep talking, so that only the send buffer can close the slow one: under load, 400
    // publishes can take longer than the idle timeout, which would otherwise close it with 4008.
    // A paused socket still writes; only its reading stops.
    const keepAlive = setInterval(() => {
      for (const c of [slow, fast]) if (c.socket.readyState === WebSocket.OPEN) c.send('PING');
    }, 400);
    (slow.socket as unknown as { _socket: { pause(): void; resume(): void } })._socket.pause();
    const bus = new ClobEventBus(redis, h.prefix, pino({ level: 'silent' }));
    const blob = 'x'.repeat(20_000);
    try {
      for (let i = 0; i < 400; i++) await bus.publishUser([{ event: 'balance:update', owner, balance: { i, blob }, timestamp: i }]);
      await fast.waitFor((f) => typeof f === 'object' && f.balance?.i === 399, 15_000);
      (slow.socket as unknown as { _socket: { resume(): void } })._socket.resume();
      expect((await slow.closed).code).toBe(WS_CLOSE.slowConsumer);
      const got = slow.events.filter((f) => f.event === 'balance:update').length;
      expect(got).toBeLessThan(400); // dropped, not buffered without bound: 8 MB were published
      expect(fast.events.filter((f) => f.event === 'balance:update')).toHaveLength(400);
    } finally {
      clearInterval(keepAlive);
      fast.close();
    }
  }, 30_000);

  it('does not leave upgrades to other paths open', async () => {
    await expect(WsClient.open(`${h.daemon.url!.replace('http', 'ws')}/v2/ws/nope`)).rejects.toThrow(/404/);
    const plain = new WebSocket(`${h.daemon.url!.replace('http', 'ws')}/health`);
    const outcome = await new Promise<string>((resolve) => {
      plain.once('close', (code) => resolve(`close ${code}`));
      plain.once('error', (err) => resolve(`error ${err.message}`));
    });
    expect(outcome).toMatch(/close|error/);
    expect(plain.readyState).toBe(WebSocket.CLOSED);
  });
});
