/**
 * UserClient against a stand-in user channel (ws-stand-in.ts): events by kind, the deprecated
 * duplicate of a failed fill left out, every pubkey watched again after a reconnect, and the
 * `connected {reconnect: true}` that tells a bot to re-read REST. The real daemon's user events
 * are checked in test/client/ws-book-client.test.ts.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UserClient, type UserClientEvents } from '../src/index.js';
import { StandIn } from './ws-stand-in.js';

const ALICE = '9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin';
const BOB = 'Hxp8Ac6ydVhT6XvPQa7cPSMtNbzZyZD3GZqNWbSKdUeq';
const M1 = '11111111-1111-4111-8111-111111111111';

let server: StandIn;
let client: UserClient;
beforeEach(async () => {
  server = await StandIn.start();
});
afterEach(async () => {
  await client?.close();
  await server.stop();
});

describe('UserClient', () => {
  it('hands out order, fill and balance events and watches every pubkey again after a reconnect', async () => {
    client = new UserClient({ url: server.url, backoff: { initialMs: 20, maxMs: 50 } });
    const got: Array<{ kind: string; event: string }> = [];
    client.on('order', (e) => got.push({ kind: 'order', event: e.event }));
    client.on('fill', (e) => got.push({ kind: 'fill', event: e.event }));
    client.on('balance', (e) => got.push({ kind: 'balance', event: e.event }));
    const connected: Array<UserClientEvents['connected']> = [];
    client.on('connected', (c) => connected.push(c));
    await client.watch(ALICE);
    await client.watch(BOB, [M1]);
    const first = server.connections[0]!;
    expect(first.received.map((t) => JSON.parse(t))).toEqual([
      { type: 'subscribe', pubkey: ALICE, markets: ['*'] },
      { type: 'subscribe', pubkey: BOB, markets: [M1] },
    ]);
    const fill = { id: 'f1', status: 'failed_insufficient_balance' };
    for (const frame of [
      { event: 'order:placed', owner: ALICE, marketId: M1, order: { id: 'o1', status: 'open' }, timestamp: 1 },
      { event: 'fill:failed', owner: ALICE, marketId: M1, fill, timestamp: 2 },
      { event: 'fill:failed_insufficient_balance', owner: ALICE, marketId: M1, fill, timestamp: 2 },
      { event: 'balance:update', owner: ALICE, balance: { pubkey: ALICE }, timestamp: 3 },
    ]) {
      first.socket.send(JSON.stringify(frame));
    }
    await server.until('three events', () => got.length === 3);
    first.socket.terminate();
    const second = await server.until('a new connection', () => server.connections[1]);
    await server.until('both pubkeys again', () => second.received.length === 2);
    expect(second.received.map((t) => JSON.parse(t).pubkey)).toEqual([ALICE, BOB]);
    expect(connected).toEqual([{ reconnect: false }, { reconnect: true }]);
    expect(got).toEqual([
      { kind: 'order', event: 'order:placed' },
      { kind: 'fill', event: 'fill:failed' },
      { kind: 'balance', event: 'balance:update' },
    ]);
    await expect(
      client.watch(
        BOB,
        Array.from({ length: 50 }, (_, i) => `m-${i}`),
      ),
    ).rejects.toThrow(RangeError);
  });
});
