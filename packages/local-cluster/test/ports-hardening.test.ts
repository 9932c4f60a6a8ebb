// One test per item of issue 9 on the embedded cluster's JSON-RPC (:8899) and PubSub (:8900)
// ports, each reproducing the report: the process must survive and answer JSON-RPC errors.
import { connect } from 'node:net';
import { Connection, Keypair, LAMPORTS_PER_SOL, SystemProgram } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JsonRpcDispatcher } from '../src/json-rpc.dispatch.js';
import { MAX_BODY_BYTES } from '../src/json-rpc.server.js';
import { signedTx } from '../src/testing/transactions.js';
import { getHealth, ledgerFingerprint, openPorts, post, rpc, WsClient, type PortsHarness } from './ports-helpers.js';

let h: PortsHarness;
let url: string;
const unhandled: unknown[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e);

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  h = await openPorts();
  url = h.endpoints.rpcUrl;
});
afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  await h?.close();
});

describe('item 1: PubSub frames', () => {
  it('answers `null`, non-objects and binary frames with JSON-RPC errors and keeps serving', async () => {
    const ws = await WsClient.open(h.endpoints.wsUrl);
    expect(await ws.send('null')).toMatchObject({ error: { code: -32600 }, id: null });
    expect(await ws.send('42')).toMatchObject({ error: { code: -32600 } });
    expect(await ws.send('[1,2]')).toMatchObject({ error: { code: -32600 } });
    expect(await ws.send('{"id":')).toMatchObject({ error: { code: -32700 } });
    expect(await ws.send(Buffer.from('{"id":1,"method":"slotSubscribe"}'), true)).toMatchObject({ error: { code: -32600 } });
    expect(await ws.send('{"id":2,"method":"nope"}')).toMatchObject({ error: { code: -32601 }, id: 2 });
    expect(await ws.send('{"id":3,"method":"slotSubscribe"}')).toMatchObject({ result: expect.any(Number), id: 3 });
    ws.close();
    expect(h.errors).toEqual([]);
  });

  it('closes a connection that sends an oversized frame, and no one else notices', async () => {
    const ws = await WsClient.open(h.endpoints.wsUrl);
    const closed = new Promise<number>((resolve) => ws.socket.once('close', (code) => resolve(code)));
    ws.socket.send('x'.repeat(200 * 1024));
    expect(await closed).toBe(1009);
    const again = await WsClient.open(h.endpoints.wsUrl);
    expect(await again.send('{"id":1,"method":"slotSubscribe"}')).toMatchObject({ result: expect.any(Number) });
    again.close();
  });

  it('refuses WebSocket handshakes from foreign browser origins, accepts loopback ones', async () => {
    await expect(WsClient.open(h.endpoints.wsUrl, { origin: 'https://evil.example' })).rejects.toThrow(/403/);
    await expect(WsClient.open(h.endpoints.wsUrl, { origin: 'null' })).rejects.toThrow(/403/);
    const local = await WsClient.open(h.endpoints.wsUrl, { origin: 'http://localhost:5173' });
    local.close();
  });
});

describe('item 2: JSON-RPC bodies', () => {
  it('survives a client that disconnects mid-body', async () => {
    const serverSide = new Promise<void>((resolve) =>
      h.endpoints.rpc.httpServer.once('connection', (s) => s.once('close', () => resolve())),
    );
    const port = h.endpoints.rpcPort;
    const sock = connect(port, '127.0.0.1');
    await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
    sock.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
    sock.destroy();
    await serverSide;
    // Let the aborted body's rejection (if any) surface before checking.
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(unhandled).toEqual([]);
    expect((await getHealth(url)).text).toBe('ok');
  });

  it('cuts off a body that trickles in slower than the request timeout with 408', async () => {
    const slow = await openPorts({ requestTimeoutMs: 400 });
    try {
      const sock = connect(slow.endpoints.rpcPort, '127.0.0.1');
      await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
      let answer = '';
      sock.on('data', (d: Buffer) => {
        answer += d.toString();
      });
      sock.write('POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{');
      const drip = setInterval(() => sock.write(' '), 100);
      await new Promise<void>((resolve) => sock.once('close', () => resolve()));
      clearInterval(drip);
      expect(answer).toMatch(/^HTTP\/1\.1 408/);
      expect(unhandled).toEqual([]);
    } finally {
      await slow.close();
    }
  });

  it(`refuses bodies over ${MAX_BODY_BYTES} bytes with 413 (declared or streamed)`, async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot', params: ['x'.repeat(MAX_BODY_BYTES)] });
    expect((await post(url, big)).status).toBe(413);
    expect((await post(url, big, { 'transfer-encoding': 'chunked' })).status).toBe(413);
    expect((await getHealth(url)).status).toBe(200);
  });
});

describe('item 3: batches, content type and origin', () => {
  it('refuses a batch above the cap with -32600 without running any of it', async () => {
    const before = h.ledger.transactionCount;
    const batch = Array.from({ length: 101 }, (_, i) => ({
      jsonrpc: '2.0',
      id: i,
      method: 'requestAirdrop',
      params: [Keypair.generate().publicKey.toBase58(), 1],
    }));
    const res = JSON.parse((await post(url, JSON.stringify(batch))).text) as { error: { code: number } };
    expect(res.error.code).toBe(-32600);
    expect(h.ledger.transactionCount).toBe(before);
  });

  it('yields to the event loop between batch calls', async () => {
    const methods = {
      spin: () => {
        const end = performance.now() + 2;
        while (performance.now() < end);
        return 1;
      },
    };
    const dispatcher = new JsonRpcDispatcher(methods, { maxBatch: 100, maxResponseBytes: 1 << 20, sliceMs: 1 });
    let loopRanDuringBatch = false;
    let batchDone = false;
    setImmediate(() => {
      loopRanDuringBatch = !batchDone;
    });
    await dispatcher.handle(Array.from({ length: 20 }, (_, i) => ({ id: i, method: 'spin' })));
    batchDone = true;
    expect(loopRanDuringBatch).toBe(true);
  });

  it('refuses an answer above the response budget with -32012 instead of building it', async () => {
    const small = await openPorts({ limits: { maxResponseBytes: 300 } });
    try {
      const one = await rpc(small.endpoints.rpcUrl, 'getProgramAccounts', [
        'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
        { encoding: 'jsonParsed' },
      ]);
      expect(one.error?.code).toBe(-32012);
      // ~40 bytes per getSlot answer: the first few fit the 300-byte budget, the rest are not run.
      const batch = Array.from({ length: 10 }, (_, i) => ({ jsonrpc: '2.0', id: i, method: 'getSlot' }));
      const answers = JSON.parse((await post(small.endpoints.rpcUrl, JSON.stringify(batch))).text) as {
        result?: number;
        error?: { code: number };
      }[];
      expect(answers).toHaveLength(10);
      expect(answers[0]?.result).toEqual(expect.any(Number));
      expect(answers.at(-1)).toMatchObject({ error: { code: -32012 }, id: 9 });
      // Calls after the budget is spent are not run at all.
      const airdrops = Array.from({ length: 20 }, (_, i) => ({
        jsonrpc: '2.0',
        id: i,
        method: 'requestAirdrop',
        params: [Keypair.generate().publicKey.toBase58(), LAMPORTS_PER_SOL],
      }));
      const before = small.ledger.transactionCount;
      const refused = JSON.parse((await post(small.endpoints.rpcUrl, JSON.stringify(airdrops))).text) as { error?: { code: number } }[];
      const ran = refused.filter((a) => !a.error).length;
      expect(ran).toBeGreaterThan(0);
      expect(ran).toBeLessThan(20);
      // Every call that ran is answered with its signature: a landed airdrop is never reported as an error.
      expect(small.ledger.transactionCount - before).toBe(ran);
    } finally {
      await small.close();
    }
  });

  it('refuses text/plain and cross-origin POSTs before running anything', async () => {
    const to = Keypair.generate().publicKey.toBase58();
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: [to, LAMPORTS_PER_SOL] });
    expect((await post(url, body, { 'content-type': 'text/plain' })).status).toBe(415);
    expect((await post(url, body, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await post(url, body, { origin: 'null' })).status).toBe(403);
    expect(h.ledger.getBalance(to)).toBe(0n);
    const local = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getSlot' }), { origin: 'http://127.0.0.1:3000' });
    expect(local.status).toBe(200);
    expect(local.headers['access-control-allow-origin']).toBe('http://127.0.0.1:3000');
  });
});

describe('item 4: hostile programSubscribe filters', () => {
  it('answers -32602 at subscribe time, and later transfers still report success and confirm', async () => {
    const ws = await WsClient.open(h.endpoints.wsUrl);
    const system = '11111111111111111111111111111111';
    for (const filters of [
      [{ memcmp: { offset: 0, bytes: '0' } }],
      [{ memcmp: { offset: -1, bytes: '1' } }],
      [{ dataSize: 'x' }],
      [null],
      [{}],
      Array(5).fill({ dataSize: 0 }),
    ]) {
      const reply = await ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'programSubscribe', params: [system, { filters }] }));
      expect(reply).toMatchObject({ error: { code: -32602 } });
    }
    const ok = await ws.send(
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'programSubscribe', params: [system, { filters: [{ dataSize: 0 }] }] }),
    );
    expect(ok).toMatchObject({ result: expect.any(Number) });
    ws.close();

    const conn = new Connection(url, { commitment: 'confirmed', wsEndpoint: h.endpoints.wsUrl });
    const payer = Keypair.generate();
    await h.ledger.airdrop(payer.publicKey.toBase58(), BigInt(LAMPORTS_PER_SOL));
    const bh = await conn.getLatestBlockhash();
    const raw = signedTx(bh.blockhash, payer, [
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: LAMPORTS_PER_SOL / 10 }),
    ]);
    const sig = await conn.sendRawTransaction(raw);
    expect((await conn.confirmTransaction({ signature: sig, ...bh })).value.err).toBeNull();
    expect(h.errors).toEqual([]);
  });

  it('isolates ledger listeners: a throwing one reaches neither the sender nor the listeners after it', async () => {
    const thrower = () => {
      throw new Error('listener bug');
    };
    const seen: string[] = [];
    const after = (rec: { signature: string }) => seen.push(rec.signature);
    h.ledger.events.on('transaction', thrower);
    h.ledger.events.on('transaction', after);
    try {
      const to = Keypair.generate().publicKey.toBase58();
      const res = await rpc(url, 'requestAirdrop', [to, LAMPORTS_PER_SOL]);
      expect(res.error).toBeUndefined();
      expect(seen).toContain(res.result);
      expect(h.errors.map((e) => e.msg)).toContain('ledger event listener failed');
    } finally {
      h.ledger.events.off('transaction', thrower);
      h.ledger.events.off('transaction', after);
      h.errors.length = 0;
    }
  });
});

describe('item 13: getMinimumBalanceForRentExemption params', () => {
  it('answers an airdrop the ledger refuses (below rent) with the preflight error, not -32603', async () => {
    const res = await rpc(url, 'requestAirdrop', [Keypair.generate().publicKey.toBase58(), 1000]);
    expect(res.error?.code).toBe(-32002);
    expect(h.errors).toEqual([]);
  });

  it('answers -32602 quietly for NaN, negative, fractional, huge and non-numeric lengths', async () => {
    const before = ledgerFingerprint(h.ledger);
    for (const bad of [null, -1, 1.5, 1e20, 2 ** 53, '165', 'NaN', [], {}, true]) {
      const res = await rpc(url, 'getMinimumBalanceForRentExemption', bad === null ? ['x'] : [bad]);
      expect(res.error?.code, JSON.stringify(bad)).toBe(-32602);
    }
    expect((await rpc(url, 'getMinimumBalanceForRentExemption', [165])).result).toBe(2039280);
    expect((await rpc(url, 'getMinimumBalanceForRentExemption', [])).result).toBe(890880);
    expect(h.errors).toEqual([]);
    expect(ledgerFingerprint(h.ledger)).toBe(before);
  });
});
