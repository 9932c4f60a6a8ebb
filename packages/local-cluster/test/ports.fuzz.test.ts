/**
 * Fuzz suite for the embedded cluster's ports (issue 9), as test/daemon/no-500.fuzz.test.ts is
 * for HTTP: fast-check drives malformed bodies and frames, bad params for every JSON-RPC method,
 * huge batches, aborted bodies and hostile subscription filters. Each answer must carry the
 * right JSON-RPC code (-32700 parse, -32600 request, -32601 method, -32602 params; -32002/-32003
 * for transactions the ledger refuses), nothing may log an error or reject unhandled, and the
 * ledger fingerprint must be the same afterwards.
 */
import { connect } from 'node:net';
import fc from 'fast-check';
import { Keypair, LAMPORTS_PER_SOL } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMethods } from '../src/json-rpc.account-methods.js';
import { transactionMethods } from '../src/json-rpc.transaction-methods.js';
import { getHealth, ledgerFingerprint, openPorts, post, rpc, WsClient, type PortsHarness } from './ports-helpers.js';
import { hostileFilter, params, scalar, SYSTEM, TOKEN, value } from './ports-arbitraries.js';

const CLIENT_ERRORS = new Set([-32700, -32600, -32601, -32602, -32002, -32003]);

let h: PortsHarness;
let methods: string[];
let before: string;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  h = await openPorts();
  methods = [...Object.keys(accountMethods(h.ledger)), ...Object.keys(transactionMethods(h.ledger))];
  before = ledgerFingerprint(h.ledger);
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await h?.close();
});

/** Only a valid airdrop could change the ledger; keep the fuzz's airdrops invalid. */
function harmless(method: string, p: unknown): unknown {
  if (method === 'requestAirdrop' && Array.isArray(p) && typeof p[1] === 'number' && p[1] > 0) return [p[0], -p[1]];
  return p;
}

function expectRpcAnswer(answer: unknown): void {
  const a = answer as { jsonrpc?: string; result?: unknown; error?: { code: number } };
  expect(a.jsonrpc).toBe('2.0');
  if (a.error) expect(CLIENT_ERRORS, JSON.stringify(a)).toContain(a.error.code);
  else expect(a).toHaveProperty('result');
}

describe('JSON-RPC port (fuzzed)', () => {
  it('answers bad params for every method with a client error code', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.option(params, { nil: undefined }), async (pick, p) => {
        const method = methods[pick % methods.length]!;
        const res = await post(h.endpoints.rpcUrl, JSON.stringify({ jsonrpc: '2.0', id: pick, method, params: harmless(method, p) }));
        expect(res.status).toBe(200);
        expectRpcAnswer(JSON.parse(res.text));
      }),
      { numRuns: 400 },
    );
    expect(h.errors).toEqual([]);
  });

  it('answers malformed bodies, call objects and batches of any size with the right codes', async () => {
    const item = fc.oneof(
      value,
      fc.record(
        { jsonrpc: fc.oneof(fc.constant('2.0'), scalar), id: scalar, method: fc.oneof(fc.constantFrom(...methods), scalar), params: value },
        { requiredKeys: [] },
      ),
    );
    const body = fc.oneof(
      fc.string({ maxLength: 80 }),
      value.map((v) => JSON.stringify(v) ?? 'undefined'),
      fc.array(item, { maxLength: 8 }).map((b) =>
        JSON.stringify(
          b.map((x) => {
            if (typeof x !== 'object' || x === null || !('method' in x)) return x;
            const call = x as { method: unknown; params?: unknown };
            return { ...call, params: harmless(String(call.method), call.params) };
          }),
        ),
      ),
      fc.integer({ min: 90, max: 400 }).map((n) =>
        JSON.stringify(
          Array.from({ length: n }, (_, i) => ({
            jsonrpc: '2.0',
            id: i,
            method: 'getProgramAccounts',
            params: [TOKEN, { encoding: 'jsonParsed' }],
          })),
        ),
      ),
    );
    const contentType = fc.constantFrom(
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      '',
    );
    await fc.assert(
      fc.asyncProperty(body, contentType, async (raw, type) => {
        const res = await post(h.endpoints.rpcUrl, raw, { 'content-type': type });
        if (!type.startsWith('application/json')) return void expect(res.status).toBe(415);
        if (Buffer.byteLength(raw) > 50 * 1024) return void expect(res.status).toBe(413);
        expect(res.status).toBe(200);
        const answer = JSON.parse(res.text) as unknown;
        if (Array.isArray(answer)) answer.forEach(expectRpcAnswer);
        else expectRpcAnswer(answer);
      }),
      { numRuns: 250 },
    );
    expect(h.errors).toEqual([]);
  });

  it('survives bodies cut off at any point', async () => {
    const valid = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'requestAirdrop',
      params: [Keypair.generate().publicKey.toBase58(), LAMPORTS_PER_SOL],
    });
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: valid.length - 1 }), fc.integer({ min: 1, max: 100_000 }), async (cut, declared) => {
        const closed = new Promise<void>((resolve) =>
          h.endpoints.rpc.httpServer.once('connection', (s) => s.once('close', () => resolve())),
        );
        const sock = connect(h.endpoints.rpcPort, '127.0.0.1');
        await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
        sock.write(
          `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Math.max(declared, valid.length)}\r\n\r\n${valid.slice(0, cut)}`,
        );
        sock.destroy();
        await closed;
      }),
      { numRuns: 40 },
    );
    await new Promise((r) => setImmediate(r));
    expect(unhandled).toEqual([]);
    expect((await getHealth(h.endpoints.rpcUrl)).text).toBe('ok');
  });
});

describe('PubSub port (fuzzed)', () => {
  const subscribeMethod = fc.constantFrom(
    'signatureSubscribe',
    'accountSubscribe',
    'programSubscribe',
    'slotSubscribe',
    'logsSubscribe',
    'signatureUnsubscribe',
    'accountUnsubscribe',
    'programUnsubscribe',
    'slotUnsubscribe',
    'logsUnsubscribe',
    'rootSubscribe',
    'getSlot',
  );
  const frame = fc.oneof(
    fc.string({ maxLength: 80 }).map((s) => ({ data: s, binary: false })),
    value.map((v) => ({ data: JSON.stringify(v) ?? 'null', binary: false })),
    fc.uint8Array({ maxLength: 64 }).map((b) => ({ data: Buffer.from(b), binary: true })),
    fc
      .record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), method: subscribeMethod, params })
      .map((r) => ({ data: JSON.stringify(r), binary: false })),
    fc
      .record({
        jsonrpc: fc.constant('2.0'),
        id: fc.nat(),
        method: fc.constant('programSubscribe'),
        params: fc.tuple(fc.constantFrom(SYSTEM, TOKEN), fc.record({ filters: fc.array(hostileFilter, { maxLength: 5 }) })),
      })
      .map((r) => ({ data: JSON.stringify(r), binary: false })),
  );

  it('answers every frame with a reply and a client error code, subscribing nothing invalid', async () => {
    const ws = await WsClient.open(h.endpoints.wsUrl);
    await fc.assert(
      fc.asyncProperty(frame, async ({ data, binary }) => {
        const reply = await ws.send(data, binary);
        expectRpcAnswer(reply);
      }),
      { numRuns: 400 },
    );
    expect(h.errors).toEqual([]);

    // The subscriptions the fuzz made (valid filters included) must not disturb a real transaction.
    const after = ledgerFingerprint(h.ledger);
    expect(after).toBe(before);
    const sigWs = await WsClient.open(h.endpoints.wsUrl);
    const to = Keypair.generate().publicKey.toBase58();
    const landed = await rpc(h.endpoints.rpcUrl, 'requestAirdrop', [to, LAMPORTS_PER_SOL]);
    expect(landed.error).toBeUndefined();
    const sub = await sigWs.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'signatureSubscribe', params: [landed.result] }));
    expect(sub).toMatchObject({ result: expect.any(Number) });
    await sigWs.until(() => sigWs.notifications.some((n) => n.method === 'signatureNotification'));
    expect(h.errors).toEqual([]);
    ws.close();
    sigWs.close();
  });

  it('drops connections sending frames above the cap and keeps serving others', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 65 * 1024, max: 2 * 1024 * 1024 }), async (size) => {
        const ws = await WsClient.open(h.endpoints.wsUrl);
        const code = new Promise<number>((resolve) => ws.socket.once('close', (c) => resolve(c)));
        ws.socket.send(Buffer.alloc(size, 0x7b).toString());
        expect(await code).toBe(1009);
      }),
      { numRuns: 8 },
    );
    const ws = await WsClient.open(h.endpoints.wsUrl);
    expect(await ws.send('{"jsonrpc":"2.0","id":1,"method":"slotSubscribe"}')).toMatchObject({ result: expect.any(Number) });
    ws.close();
  });

  it('leaves the ledger as it was and rejects nothing unhandled', () => {
    expect(unhandled).toEqual([]);
    expect(h.errors).toEqual([]);
  });
});
