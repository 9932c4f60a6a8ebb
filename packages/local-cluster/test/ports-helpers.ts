// Shared helpers for the embedded cluster's port tests: a ledger with its endpoints, raw HTTP and
// WebSocket clients that send exactly the bytes given, a log sink, and a ledger fingerprint.
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { Writable } from 'node:stream';
import pino from 'pino';
import WebSocket from 'ws';
import { startClusterEndpoints, type ClusterEndpoints } from '../src/cluster-endpoints.js';
import type { JsonRpcServerOptions } from '../src/json-rpc.server.js';
import { EmbeddedLedger } from '../src/ledger.js';

export interface PortsHarness {
  ledger: EmbeddedLedger;
  endpoints: ClusterEndpoints;
  /** Every log line at level error or above. */
  errors: Record<string, unknown>[];
  close(): Promise<void>;
}

export async function openPorts(rpcOptions: JsonRpcServerOptions = {}): Promise<PortsHarness> {
  const errors: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      const line = JSON.parse(chunk.toString()) as Record<string, unknown>;
      if (typeof line.level === 'number' && line.level >= 50) errors.push(line);
      done();
    },
  });
  const logger = pino({ level: 'warn' }, sink);
  const ledger = await EmbeddedLedger.open({ logger, slotMs: 100 });
  const endpoints = await startClusterEndpoints(ledger, 0, logger, '127.0.0.1', rpcOptions);
  return {
    ledger,
    endpoints,
    errors,
    close: async () => {
      await endpoints.close();
      await ledger.close();
    },
  };
}

export interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** POSTs `body` verbatim (default content type application/json). */
export function post(url: string, body: string, headers: Record<string, string> = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export function getHealth(url: string): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    request(`${url}/health`, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => {
        text += c.toString();
      });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    })
      .on('error', reject)
      .end();
  });
}

export async function rpc(
  url: string,
  method: string,
  params?: unknown,
): Promise<{ result?: unknown; error?: { code: number; message: string } }> {
  const res = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }));
  return JSON.parse(res.text) as { result?: unknown; error?: { code: number; message: string } };
}

/** A WebSocket client that queues replies (not notifications) and notifications apart. */
export class WsClient {
  readonly replies: Record<string, unknown>[] = [];
  readonly notifications: Record<string, unknown>[] = [];
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const msg = JSON.parse(String(data)) as Record<string, unknown>;
      (msg.method ? this.notifications : this.replies).push(msg);
      for (const w of this.waiters.splice(0)) w();
    });
    socket.on('close', () => {
      for (const w of this.waiters.splice(0)) w();
    });
  }

  static open(url: string, headers: Record<string, string> = {}): Promise<WsClient> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(url, { headers });
      socket.once('open', () => resolve(new WsClient(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends raw data and resolves with the next reply. */
  async send(data: string | Buffer, binary = false): Promise<Record<string, unknown>> {
    const before = this.replies.length;
    this.socket.send(data, { binary });
    await this.until(() => this.replies.length > before);
    return this.replies[before]!;
  }

  async until(cond: () => boolean): Promise<void> {
    while (!cond()) {
      if (this.socket.readyState !== WebSocket.OPEN) throw new Error('socket closed');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): void {
    this.socket.close();
  }
}

const FINGERPRINT_OWNERS = [
  '11111111111111111111111111111111',
  'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
  'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
];

/** A hash over every account of the system and token programs plus the transaction count. */
export function ledgerFingerprint(ledger: EmbeddedLedger): string {
  const h = createHash('sha256');
  h.update(String(ledger.transactionCount));
  for (const owner of FINGERPRINT_OWNERS) {
    const accounts = ledger.getProgramAccounts(owner).sort((a, b) => (a.address < b.address ? -1 : 1));
    for (const { address, account } of accounts) h.update(`${address}:${account.lamports}:${account.owner}:`).update(account.data);
  }
  return h.digest('hex');
}
