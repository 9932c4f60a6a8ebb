/**
 * The WebSocket hub's rules without a network: the command grammar, the limits (subscriptions,
 * rate, idle, slow consumers) and their close codes, the market channel, and resync after a lost
 * bus subscription. The user channel and the fuzz: ws-hub-user.test.ts.
 */
import fs from 'node:fs';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { Outbox } from '../../src/services/family-c/ws/outbox.js';
import { RateWindow } from '../../src/services/family-c/ws/rate-window.js';
import { WsHub } from '../../src/services/family-c/ws/ws-hub.js';
import { parseClientMessage, WS_CLOSE, WS_ERROR_CODES, WS_LIMITS } from '../../src/services/family-c/ws/ws-protocol.js';
import { FakePeer, M1, M2, settle, setup, SLUGS } from './ws-hub.fixture.js';

describe('docs/websockets.md', () => {
  const doc = fs.readFileSync(new URL('../../docs/websockets.md', import.meta.url), 'utf8');
  const section = (title: string) => doc.slice(doc.indexOf(`### ${title}`), doc.indexOf('\n#', doc.indexOf(`### ${title}`) + 4));
  const firstColumn = (text: string, cell: RegExp) => [...text.matchAll(new RegExp(`^\\| ${cell.source} \\|`, 'gm'))].map((m) => m[1]!);

  it('documents exactly the close codes the code uses', () => {
    expect(
      firstColumn(section('Close codes'), /(\d{4})/)
        .map(Number)
        .sort(),
    ).toEqual(Object.values(WS_CLOSE).sort());
  });

  it('documents every error code and the limits the code enforces', () => {
    const documented = firstColumn(section('Error codes'), /`([A-Z_]+)`/).sort();
    expect(documented).toEqual([...WS_ERROR_CODES].sort());
    const limits = section('Limits');
    expect(limits).toContain(`| ${WS_LIMITS.maxSubscriptions} |`);
    expect(limits).toContain(`| ${WS_LIMITS.messagesPerSecond} | close \`${WS_CLOSE.tooFast}\``);
    expect(limits).toContain(`(${WS_LIMITS.maxMessageBytes} bytes) | close \`${WS_CLOSE.tooBig}\``);
  });
});

describe('client command grammar', () => {
  it.each([
    ['PING', 'market', { ok: true, command: { type: 'ping' } }],
    [' ping\n', 'user', { ok: true, command: { type: 'ping' } }],
    ['{"type":"subscribe","markets":["a","a","b"]}', 'market', { ok: true, command: { type: 'subscribe', markets: ['a', 'b'] } }],
    ['{"type":"unsubscribe"}', 'market', { ok: true, command: { type: 'unsubscribe', markets: 'all' } }],
  ] as const)('%j on %s', (text, channel, expected) => {
    expect(parseClientMessage(channel, text)).toEqual(expected);
  });

  const pubkey = Keypair.generate().publicKey.toBase58();
  it('reads the user channel’s pubkey and market filter', () => {
    expect(parseClientMessage('user', JSON.stringify({ type: 'subscribe', pubkey }))).toEqual({
      ok: true,
      command: { type: 'subscribe', markets: 'all', pubkey },
    });
    expect(parseClientMessage('user', JSON.stringify({ type: 'subscribe', pubkey, markets: ['*'] }))).toEqual({
      ok: true,
      command: { type: 'subscribe', markets: 'all', pubkey },
    });
    expect(parseClientMessage('user', JSON.stringify({ type: 'subscribe', pubkey, markets: ['x'] }))).toEqual({
      ok: true,
      command: { type: 'subscribe', markets: ['x'], pubkey },
    });
  });

  it.each([
    ['{"type":"subscribe","markets":[', 'market', /^Malformed JSON/],
    ['[1,2]', 'market', /JSON object/],
    ['"subscribe"', 'market', /JSON object/],
    ['{"type":"sub","markets":["a"]}', 'market', /type must be/],
    ['{"type":"subscribe"}', 'market', /markets is required/],
    ['{"type":"subscribe","markets":"a"}', 'market', /must be an array/],
    ['{"type":"subscribe","markets":[]}', 'market', /must not be empty/],
    [JSON.stringify({ type: 'subscribe', markets: Array.from({ length: 51 }, (_, i) => `m${i}`) }), 'market', /at most 50/],
    ['{"type":"subscribe","markets":[7]}', 'market', /UUID or slug/],
    [JSON.stringify({ type: 'subscribe', markets: ['x'.repeat(81)] }), 'market', /UUID or slug/],
    [JSON.stringify({ type: 'subscribe', markets: ['a\u0000b'] }), 'market', /UUID or slug/],
    ['{"type":"subscribe","markets":["*"]}', 'market', /user channel only/],
    ['{"type":"subscribe"}', 'user', /pubkey is required/],
    ['{"type":"subscribe","pubkey":"not-a-key"}', 'user', /base58/],
    [JSON.stringify({ type: 'subscribe', pubkey, markets: ['*', 'a'] }), 'user', /stands alone/],
  ] as const)('refuses %s on %s', (text, channel, message) => {
    const parsed = parseClientMessage(channel, text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toMatch(message);
  });
});

describe('rate window', () => {
  it('allows 20 frames in any second and refuses the 21st, across second boundaries too', () => {
    const w = new RateWindow(20, 1_000);
    for (let i = 0; i < 10; i++) expect(w.hit(900)).toBe(true);
    for (let i = 0; i < 10; i++) expect(w.hit(1_000)).toBe(true);
    expect(w.hit(1_899)).toBe(false); // 21 frames within 999 ms although two "seconds" are involved
    expect(w.hit(1_900)).toBe(true); // the ten at 900 are a full second old
    for (let i = 0; i < 9; i++) expect(w.hit(1_900)).toBe(true);
    expect(w.hit(1_999)).toBe(false);
  });
});

describe('outbox', () => {
  it('sends in slices of about 4 ms, yielding between them, each connection’s frames in order', () => {
    const sent: string[] = [];
    const slices: Array<() => void> = [];
    const outbox = new Outbox<string>(
      (conn, frame) => {
        const until = performance.now() + 1; // a 1 ms socket write
        while (performance.now() < until);
        sent.push(`${conn}${frame}`);
        return true;
      },
      (run) => slices.push(run),
    );
    for (let i = 0; i < 6; i++) for (const conn of ['a', 'b']) outbox.push(conn, String(i));
    let ran = 0;
    while (slices.length > 0) {
      slices.shift()!();
      ran++;
      if (ran === 1) outbox.push('a', '6'); // arrives between slices: still after a's earlier frames
    }
    expect(ran).toBeGreaterThanOrEqual(3);
    expect(sent.filter((f) => f[0] === 'a')).toEqual(['a0', 'a1', 'a2', 'a3', 'a4', 'a5', 'a6']);
    expect(sent.filter((f) => f[0] === 'b')).toEqual(['b0', 'b1', 'b2', 'b3', 'b4', 'b5']);
    expect(outbox.waiting).toBe(0);
  });

  it('drops a connection with 4010 when 10,000 frames wait for it on this node', () => {
    const hub = new WsHub(
      { resolveMarkets: async () => [], readBook: () => undefined, now: () => 0, defer: () => undefined, warn: () => undefined },
      { idleTimeoutMs: 30_000, maxBufferedBytes: 1_000 },
    );
    const peer = new FakePeer();
    const conn = hub.open('market', peer);
    for (let i = 0; i < 10_000; i++) hub.deliver(conn, 'x');
    expect(peer.closedWith).toBeNull();
    hub.deliver(conn, 'x');
    expect(peer.closedWith?.code).toBe(WS_CLOSE.slowConsumer);
    expect(hub.stats().unsent).toBe(0);
  });
});

describe('market channel', () => {
  it('acks, then sends the book, the buffered events after it, then live events in seq order', async () => {
    const { hub, reads, answer, publish } = setup();
    const peer = new FakePeer();
    const conn = hub.open('market', peer);
    hub.receive(conn, JSON.stringify({ type: 'subscribe', markets: ['rain-lisbon'] }));
    await settle();
    expect(peer.json).toEqual([{ event: 'subscribed', markets: [M1] }]);
    expect(reads).toEqual([{ marketId: M1, ticket: 1 }]);
    publish(M1, 4, 5);
    publish(M2, 1); // nobody here subscribes to M2
    answer(4);
    publish(M1, 6);
    expect(peer.json.map((f) => [f.event, f.seq])).toEqual([
      ['subscribed', undefined],
      ['book', 4],
      ['price_change', 5],
      ['price_change', 6],
    ]);
  });

  it('refuses unknown markets and a 51st subscription whole, re-subscribing costs nothing and sends a fresh book', async () => {
    const { hub, answer } = setup();
    const peer = new FakePeer();
    const conn = hub.open('market', peer);
    hub.receive(conn, JSON.stringify({ type: 'subscribe', markets: ['rain-lisbon', 'nope', 'nada'] }));
    await settle();
    expect(peer.json.at(-1)).toMatchObject({ event: 'error', code: 'UNKNOWN_MARKET', markets: ['nope', 'nada'] });
    expect(hub.stats().feeds.subscriptions).toBe(0);

    hub.receive(conn, JSON.stringify({ type: 'subscribe', markets: Array.from({ length: 50 }, (_, i) => `m-${i}`) }));
    await settle();
    expect(hub.stats().feeds.subscriptions).toBe(50);
    hub.receive(conn, JSON.stringify({ type: 'subscribe', markets: ['m-50'] }));
    await settle();
    expect(peer.json.at(-1)).toMatchObject({ event: 'error', code: 'TOO_MANY_SUBSCRIPTIONS' });
    expect(hub.stats().feeds.subscriptions).toBe(50);

    answer(0);
    const books = peer.json.filter((f) => f.event === 'book').length;
    hub.receive(conn, JSON.stringify({ type: 'subscribe', markets: ['m-3'] }));
    await settle();
    expect(peer.json.at(-1)).toEqual({ event: 'subscribed', markets: [SLUGS['m-3']] });
    answer(0);
    expect(peer.json.filter((f) => f.event === 'book').length).toBe(books + 1);

    hub.receive(conn, JSON.stringify({ type: 'unsubscribe', markets: ['m-3', 'm-4'] }));
    await settle();
    expect(peer.json.at(-1)).toEqual({ event: 'unsubscribed', markets: [SLUGS['m-3'], SLUGS['m-4']] });
    hub.receive(conn, JSON.stringify({ type: 'unsubscribe' }));
    await settle();
    expect(peer.json.at(-1).markets).toHaveLength(48);
    expect(hub.stats().feeds).toMatchObject({ markets: 0, subscriptions: 0 });
  });

  it('answers PING with PONG and binary frames with an error; malformed commands change nothing', async () => {
    const { hub } = setup();
    const peer = new FakePeer();
    const conn = hub.open('market', peer);
    hub.receive(conn, 'PING');
    hub.receive(conn, null);
    hub.receive(conn, '{oops');
    await settle();
    expect(peer.sent[0]).toBe('PONG');
    expect(peer.json.map((f) => f.code)).toEqual(['BINARY_NOT_SUPPORTED', 'INVALID_MESSAGE']);
    expect(peer.closedWith).toBeNull();
  });

  it('closes with 4029 on the 21st frame within a second, dropping every subscription', async () => {
    const { hub } = setup();
    const peer = new FakePeer();
    const conn = hub.open('market', peer);
    hub.receive(conn, JSON.stringify({ type: 'subscribe', markets: [M1] }));
    await settle();
    for (let i = 0; i < 19; i++) hub.receive(conn, 'PING');
    expect(peer.closedWith).toBeNull();
    hub.receive(conn, 'PING');
    expect(peer.closedWith).toEqual({ code: WS_CLOSE.tooFast, reason: 'more than 20 messages per second' });
    expect(hub.stats()).toMatchObject({ connections: { market: 0, user: 0 }, feeds: { subscriptions: 0 } });
  });

  it('closes silent connections with 4008 after the idle timeout; any frame keeps one open', () => {
    const { hub, advance } = setup({ idleTimeoutMs: 30_000 });
    const quiet = new FakePeer();
    const chatty = new FakePeer();
    hub.open('market', quiet);
    const c2 = hub.open('user', chatty);
    advance(20_000);
    hub.receive(c2, 'PING');
    advance(10_000);
    hub.sweepIdle();
    expect(quiet.closedWith?.code).toBe(WS_CLOSE.idle);
    expect(chatty.closedWith).toBeNull();
    advance(20_000);
    hub.heartbeat(c2); // a protocol-level ping frame
    advance(10_000);
    hub.sweepIdle();
    expect(chatty.closedWith).toBeNull();
  });

  it('drops a slow consumer with 4010 instead of queueing more for it; others keep receiving', async () => {
    const { hub, answer, publish } = setup({ maxBufferedBytes: 1_000 });
    const slow = new FakePeer();
    const fast = new FakePeer();
    for (const peer of [slow, fast]) hub.receive(hub.open('market', peer), JSON.stringify({ type: 'subscribe', markets: [M1] }));
    await settle();
    answer(0);
    slow.bufferedAmount = 1_001;
    publish(M1, 1);
    publish(M1, 2);
    expect(slow.closedWith?.code).toBe(WS_CLOSE.slowConsumer);
    expect(slow.json.map((f) => f.event)).toEqual(['subscribed', 'book']);
    expect(fast.json.map((f) => f.seq)).toEqual([undefined, 0, 1, 2]);
    expect(hub.stats().feeds.subscriptions).toBe(1);
  });

  it('resyncs every market subscriber after the bus subscription is re-established', async () => {
    const { hub, reads, answer, publish } = setup();
    const peer = new FakePeer();
    hub.receive(hub.open('market', peer), JSON.stringify({ type: 'subscribe', markets: [M1] }));
    await settle();
    answer(3);
    publish(M1, 4);
    hub.busReconnected();
    expect(reads).toHaveLength(1);
    publish(M1, 9); // after the reconnect, before the fresh book: buffered, in the book
    answer(9);
    expect(peer.json.map((f) => [f.event, f.seq])).toEqual([
      ['subscribed', undefined],
      ['book', 3],
      ['price_change', 4],
      ['book', 9],
    ]);
  });

  it('tells the client when its book cannot be read and forgets that subscription', async () => {
    const { hub, reads } = setup();
    const peer = new FakePeer();
    hub.receive(hub.open('market', peer), JSON.stringify({ type: 'subscribe', markets: [M1] }));
    await settle();
    hub.bookFailed(M1, reads[0]!.ticket, 'The book could not be read; subscribe again');
    expect(peer.json.at(-1)).toEqual({
      event: 'error',
      code: 'BOOK_UNAVAILABLE',
      message: 'The book could not be read; subscribe again',
      marketId: M1,
    });
    expect(hub.stats().feeds.subscriptions).toBe(0);
  });
});
