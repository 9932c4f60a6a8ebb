/**
 * Solana JSON-RPC 2.0 over HTTP on 127.0.0.1 (default port 8899, as solana-test-validator), on
 * plain node:http for speed. Single requests and batches (arrays); unknown methods get -32601.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { accountMethods } from './json-rpc.account-methods.js';
import { transactionMethods } from './json-rpc.transaction-methods.js';
import type { EmbeddedLedger } from './ledger.js';
import { RpcError, RPC_METHOD_NOT_FOUND, type RpcMethod } from './rpc-error.js';

const MAX_BODY_BYTES = 5 * 1024 * 1024;

interface RpcRequest {
  jsonrpc?: string;
  id?: unknown;
  method?: unknown;
  params?: unknown;
}

export class JsonRpcServer {
  private readonly methods: Record<string, RpcMethod>;
  private readonly server: Server;

  constructor(ledger: EmbeddedLedger, private readonly logger?: Logger) {
    this.methods = { ...accountMethods(ledger), ...transactionMethods(ledger) };
    this.server = createServer((req, res) => void this.onRequest(req, res));
    this.server.keepAliveTimeout = 60_000;
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  /** Stops accepting connections, lets in-flight requests finish (up to 1 s), then drops the rest. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      const force = setTimeout(() => this.server.closeAllConnections(), 1000);
      this.server.close(() => {
        clearTimeout(force);
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }

  /** Dispatches one JSON-RPC call object (also used by tests and the PubSub server). */
  async call(req: RpcRequest): Promise<Record<string, unknown>> {
    const id = req.id ?? null;
    const method = typeof req.method === 'string' ? this.methods[req.method] : undefined;
    if (!method || !Object.hasOwn(this.methods, req.method as string)) {
      return { jsonrpc: '2.0', error: { code: RPC_METHOD_NOT_FOUND, message: 'Method not found' }, id };
    }
    try {
      const params = Array.isArray(req.params) ? req.params : [];
      return { jsonrpc: '2.0', result: await method(params), id };
    } catch (e) {
      if (e instanceof RpcError) return { jsonrpc: '2.0', error: { code: e.code, message: e.message, ...(e.data !== undefined ? { data: e.data } : {}) }, id };
      this.logger?.error({ err: e, method: req.method }, 'json-rpc method failed');
      return { jsonrpc: '2.0', error: { code: -32603, message: 'Internal error' }, id };
    }
  }

  private async onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (req.method === 'GET' && req.url === '/health') return this.reply(res, 200, 'ok', 'text/plain');
    if (req.method !== 'POST') return this.reply(res, 405, 'Used HTTP Method is not allowed. POST or OPTIONS is required', 'text/plain');
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) return this.reply(res, 413, 'Payload Too Large', 'text/plain');
      chunks.push(chunk as Buffer);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return this.reply(res, 200, JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }));
    }
    if (Array.isArray(body)) {
      if (body.length === 0) return this.reply(res, 200, JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null }));
      const out: Record<string, unknown>[] = [];
      for (const item of body) out.push(await this.call(item as RpcRequest));
      return this.reply(res, 200, JSON.stringify(out));
    }
    if (!body || typeof body !== 'object') return this.reply(res, 200, JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid request' }, id: null }));
    this.reply(res, 200, JSON.stringify(await this.call(body as RpcRequest)));
  }

  private reply(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }
}
