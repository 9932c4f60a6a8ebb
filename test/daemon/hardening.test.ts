/**
 * Issue 9 on a real daemon (embedded cluster, SQLite, workers) listening on a socket: malformed
 * admin cookies, HEAD counted with GET, trust-proxy, slow bodies, the per-client connection cap,
 * identical faucet calls within one slot, and private file modes under DATA_DIR.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { Keypair } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHarness, type BHarness } from '../family-b/family-b.harness.js';

let h: BHarness;
let base: string;
beforeAll(async () => {
  h = await openHarness({
    RATE_LIMIT_READ_PER_MIN: '5',
    HTTP_REQUEST_TIMEOUT_MS: '1500',
    HTTP_MAX_CONNECTIONS_PER_CLIENT: '20',
    TRUST_PROXY: '1',
  });
  base = h.daemon.url!;
});
afterAll(async () => h?.close());

/** Opens a raw socket, sends `head`, and resolves with what the server answered when it closed. */
function rawExchange(head: string, { trickle = false } = {}): Promise<{ answer: string; ms: number }> {
  const { hostname, port } = new URL(base);
  const started = Date.now();
  return new Promise((resolve) => {
    let answer = '';
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    let timer: NodeJS.Timeout | undefined;
    if (trickle) timer = setInterval(() => socket.writable && socket.write('a'), 400);
    socket.on('data', (d) => (answer += d.toString()));
    socket.on('close', () => {
      if (timer) clearInterval(timer);
      resolve({ answer, ms: Date.now() - started });
    });
    socket.on('error', () => undefined);
  });
}

describe('HTTP hardening', () => {
  it('a malformed admin cookie is no session: 401, not 500', async () => {
    const res = await fetch(`${base}/v2/admin/outbound`, { headers: { cookie: 'pmx_admin=%E0%A4%A' } });
    expect(res.status).toBe(401);
  });

  it('HEAD and GET share one read budget; behind one trusted proxy clients are told apart by X-Forwarded-For', async () => {
    const as = (ip: string, method: 'GET' | 'HEAD') => fetch(`${base}/health`, { method, headers: { 'x-forwarded-for': ip } });
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await as('203.0.113.7', 'GET')).status, (await as('203.0.113.7', 'HEAD')).status);
    // Five reads pass, the sixth of the minute is refused, whichever method each was.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await as('203.0.113.8', 'GET')).status).toBe(200); // another client behind the same proxy
  });

  it('a body trickling in slower than the request timeout is cut off', async () => {
    const { answer, ms } = await rawExchange(
      'POST /v2/markets/create HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
      { trickle: true },
    );
    expect(ms).toBeLessThan(5_000); // the request timeout is 1.5 s, checked every second
    expect(answer === '' || /^HTTP\/1\.1 408/.test(answer)).toBe(true);
  });

  it('two identical faucet calls in the same slot both land', async () => {
    const wallet = Keypair.generate().publicKey.toBase58();
    const call = () =>
      fetch(`${base}/v2/dev/faucet`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.1' },
        body: JSON.stringify({ wallet, usdc: '1000000' }),
      });
    const [a, b] = await Promise.all([call(), call()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const signatureOf = async (r: Response) => ((await r.json()) as { data: { usdcSignature: string } }).data.usdcSignature;
    const [sa, sb] = [await signatureOf(a), await signatureOf(b)];
    expect(sa).not.toBe(sb);
  });

  // Last: it fills this client's connection budget, and the server frees it only as sockets close.
  it('one client cannot hold more than the connection cap', async () => {
    const { hostname, port } = new URL(base);
    const sockets = await Promise.all(
      Array.from(
        { length: 30 },
        () =>
          new Promise<net.Socket>((resolve) => {
            const s = net.connect(Number(port), hostname, () => resolve(s));
            s.on('error', () => undefined);
          }),
      ),
    );
    const closed = await Promise.all(
      sockets.map(
        (s) =>
          new Promise<boolean>((resolve) => {
            if (s.destroyed) return resolve(true);
            s.once('close', () => resolve(true));
            setTimeout(() => resolve(false), 1_000);
          }),
      ),
    );
    // 30 opened, at most 20 allowed (keep-alive sockets of earlier tests may still count).
    expect(closed.filter(Boolean).length).toBeGreaterThanOrEqual(10);
    expect(closed.filter((c) => !c).length).toBeLessThanOrEqual(20);
    for (const s of sockets) s.destroy();
  });

  it('every file under DATA_DIR is 0600 and every directory 0700', () => {
    const bad: string[] = [];
    const walk = (p: string) => {
      const st = fs.lstatSync(p);
      if (st.isSymbolicLink()) return;
      const mode = st.mode & 0o777;
      if (st.isDirectory()) {
        if (mode & 0o077) bad.push(`${p} ${mode.toString(8)}`);
        for (const e of fs.readdirSync(p)) walk(path.join(p, e));
      } else if (st.isFile() && mode & 0o077) bad.push(`${p} ${mode.toString(8)}`);
    };
    walk(h.daemon.dataDir);
    expect(bad).toEqual([]);
  });
});
