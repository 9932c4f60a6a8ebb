/**
 * A WebSocket upgrade that gets an HTTP answer instead (no such route, not logged in, over the rate
 * limit) has its socket closed by the server once answered, as @fastify/websocket's own onResponse
 * hook did: buildApp now runs that hook's work from its single onResponse hook, for upgrade
 * requests only (src/api/ws/websocket.plugin.ts). Without it the socket stays open until the
 * connection timeout (a minute), past this test's deadline.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let port: number;
beforeAll(async () => {
  t = await createTestApp({ readPerMinute: 2 });
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  port = (t.app.server.address() as net.AddressInfo).port;
});
afterAll(async () => t?.close());

/** Sends one raw request and reads until the server closes the socket: what it answered. */
function exchange(path: string, headers: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(answer));
    const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}`);
    socket.write(`GET ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
  });
}

const upgrade = {
  connection: 'Upgrade',
  upgrade: 'websocket',
  'sec-websocket-version': '13',
  'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==',
};

describe('an upgrade answered over HTTP', () => {
  it('is closed after its 404, its 401 and its 429', async () => {
    // Two reads a minute: the third unknown path is over the not-found handler's limit.
    const unknown = [];
    for (let i = 0; i < 3; i++) unknown.push(await exchange('/v2/ws/nope', upgrade));
    expect(unknown.map((answer) => answer.slice(0, 12))).toEqual(['HTTP/1.1 404', 'HTTP/1.1 404', 'HTTP/1.1 429']);
    expect(await exchange('/admin/nodes', upgrade)).toMatch(/^HTTP\/1\.1 401 /);
  }, 10_000);
});
