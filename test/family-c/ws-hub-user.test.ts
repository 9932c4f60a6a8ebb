/**
 * The WebSocket hub's user channel without a network (routing by pubkey and market filter,
 * unsubscribing, closing on a lost bus) and a fast-check fuzz: any frames, in any order, on any
 * channel, never throw and leave nothing behind once the connections close.
 */
import { Keypair } from '@solana/web3.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WS_CLOSE, WS_LIMITS } from '../../src/services/family-c/ws/ws-protocol.js';
import { FakePeer, M1, M2, settle, setup } from './ws-hub.fixture.js';

describe('user channel', () => {
  const alice = Keypair.generate().publicKey.toBase58();
  const bob = Keypair.generate().publicKey.toBase58();
  const event = (e: string, owner: string, marketId?: string) => ({ event: e, owner, ...(marketId ? { marketId } : {}), timestamp: 1 });

  it('routes events by pubkey and market filter; balance updates reach every subscription of the pubkey', async () => {
    const { hub } = setup();
    const all = new FakePeer();
    const onlyM1 = new FakePeer();
    hub.receive(hub.open('user', all), JSON.stringify({ type: 'subscribe', pubkey: alice }));
    hub.receive(hub.open('user', onlyM1), JSON.stringify({ type: 'subscribe', pubkey: alice, markets: ['rain-lisbon'] }));
    await settle();
    expect(all.json[0]).toEqual({ event: 'subscribed', pubkey: alice, markets: ['*'] });
    expect(onlyM1.json[0]).toEqual({ event: 'subscribed', pubkey: alice, markets: [M1] });
    hub.userMessage(
      JSON.stringify([
        event('order:placed', alice, M1),
        event('order:placed', alice, M2),
        event('fill:matched', bob, M1),
        event('balance:update', alice),
      ]),
    );
    expect(all.json.slice(1).map((f) => [f.event, f.marketId])).toEqual([
      ['order:placed', M1],
      ['order:placed', M2],
      ['balance:update', undefined],
    ]);
    expect(onlyM1.json.slice(1).map((f) => [f.event, f.marketId])).toEqual([
      ['order:placed', M1],
      ['balance:update', undefined],
    ]);
  });

  it('unsubscribes by pubkey and closes user connections with 1012 when the bus was interrupted', async () => {
    const { hub } = setup();
    const peer = new FakePeer();
    const conn = hub.open('user', peer);
    hub.receive(conn, JSON.stringify({ type: 'subscribe', pubkey: alice }));
    hub.receive(conn, JSON.stringify({ type: 'subscribe', pubkey: bob, markets: [M1, M2] }));
    await settle();
    expect(conn.subscriptionCount).toBe(3);
    hub.receive(conn, JSON.stringify({ type: 'unsubscribe', pubkey: alice }));
    await settle();
    expect(peer.json.at(-1)).toEqual({ event: 'unsubscribed', pubkey: alice, markets: ['*'] });
    hub.userMessage(JSON.stringify([event('order:placed', alice, M1)]));
    expect(peer.json.at(-1).event).toBe('unsubscribed');
    hub.busReconnected();
    expect(peer.closedWith?.code).toBe(WS_CLOSE.serviceRestart);
    expect(hub.stats()).toMatchObject({ owners: 0, connections: { user: 0 } });
  });
});

describe('fuzz', () => {
  const pubkey = Keypair.generate().publicKey.toBase58();
  const market = fc.constantFrom('rain-lisbon', M1, M2, 'nope', '*', '', 'm-1', 'x'.repeat(90));
  const command = fc.record(
    {
      type: fc.constantFrom('subscribe', 'unsubscribe', 'ping', 'SUBSCRIBE', 7),
      markets: fc.oneof(fc.array(market, { maxLength: 60 }), market, fc.constant(null)),
      pubkey: fc.constantFrom(pubkey, 'junk', ''),
    },
    { requiredKeys: [] },
  );
  const frame = fc.oneof(
    command.map((c) => JSON.stringify(c)),
    fc.string({ maxLength: 64 }),
    fc.string({ unit: 'binary', maxLength: 64 }),
    fc.constantFrom('PING', '{', 'null', '[]', '{"type":"subscribe","markets":[{}]}', '\u0000'),
    fc.constant(null), // a binary frame
  );
  const bus = fc.oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom(
      '[]',
      '{"marketId":"x","events":[{}]}',
      `{"marketId":"${M1}","events":[{"seq":"a"}]}`,
      '[{"owner":5}]',
      `[{"owner":"${pubkey}","event":"balance:update"}]`,
    ),
  );
  const step = fc.oneof(
    fc.record({ conn: fc.integer({ min: 0, max: 2 }), frame }),
    fc.record({ bus }),
    fc.record({ advanceMs: fc.integer({ min: 0, max: 40_000 }) }),
    fc.record({ answer: fc.integer({ min: 0, max: 100 }) }),
  );

  it('no sequence of frames throws, and nothing is left once the connections close', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 60 }), async (steps) => {
        const { hub, answer, advance } = setup();
        const conns = [hub.open('market', new FakePeer()), hub.open('user', new FakePeer()), hub.open('market', new FakePeer())];
        for (const s of steps) {
          if ('frame' in s) hub.receive(conns[s.conn]!, s.frame);
          else if ('bus' in s) {
            hub.marketMessage(s.bus);
            hub.userMessage(s.bus);
          } else if ('advanceMs' in s) {
            advance(s.advanceMs);
            hub.sweepIdle();
          } else answer(s.answer);
          await settle();
        }
        for (const c of conns) {
          expect(c.subscriptionCount).toBeLessThanOrEqual(WS_LIMITS.maxSubscriptions);
          hub.closed(c);
        }
        expect(hub.stats()).toEqual({
          connections: { market: 0, user: 0 },
          owners: 0,
          feeds: { markets: 0, subscriptions: 0, reading: 0, buffered: 0 },
          unsent: 0,
        });
      }),
      { numRuns: 300 },
    );
  });
});
