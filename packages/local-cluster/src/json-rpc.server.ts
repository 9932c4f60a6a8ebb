/**
 * Solana JSON-RPC 2.0 over HTTP on 127.0.0.1 (default port 8899, as solana-test-validator), on
 * plain node:http for speed. Every byte is treated as hostile: bodies are capped at Agave's
 * 50 KiB (413), must be `application/json` (415, as Agave's server answers; this also forces
 * a CORS preflight on browsers), browser Origins other than loopback are refused (403), slow
 * or abandoned bodies time out, and a client that disconnects mid-body is simply dropped.
 * Calls and batches go through JsonRpcDispatcher (limits, event-loop yields, response budget).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { DEFAULT_DISPATCH_LIMITS, JsonRpcDispatcher, rpcErrorReply, type DispatchLimits } from './json-rpc.dispatch.js';
import { accountMethods } from './json-rpc.account-methods.js';
import { transactionMethods } from './json-rpc.transaction-methods.js';
import type { EmbeddedLedger } from './ledger.js';
import { RPC_METHOD_NOT_FOUND, RPC_PARSE_ERROR, RpcError } from './rpc-error.js';
import { MintDecimals } from './rpc-mint-decimals.js';
import { KeptResults } from './rpc-kept-results.js';
import { isAllowedOrigin } from './rpc-origin.js';

/** Agave's MAX_REQUEST_BODY_SIZE (`--rpc-max-request-body-size` default). */
export const MAX_BODY_BYTES = 50 * 1024;
const REQUEST_TIMEOUT_MS = 10_000;
const HEADERS_TIMEOUT_MS = 5_000;

export interface JsonRpcServerOptions {
  limits?: Partial<DispatchLimits>;
  /** Whole request (headers and body) must arrive within this (default 10 s), else 408. */
  requestTimeoutMs?: number;
  /** false: `requestAirdrop` is refused (a ledger reachable from other machines mints no free SOL). */
  airdrop?: boolean;
}

function airdropDisabled(): never {
  throw new RpcError(RPC_METHOD_NOT_FOUND, 'requestAirdrop is disabled on this cluster (its operator turned the faucet off)');
}

class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export class JsonRpcServer {
  private readonly dispatcher: JsonRpcDispatcher;
  private readonly server: Server;
  private readonly decimals: MintDecimals;

  constructor(
    ledger: EmbeddedLedger,
    private readonly logger?: Logger,
    opts: JsonRpcServerOptions = {},
  ) {
    this.decimals = new MintDecimals(ledger);
    const methods = { ...accountMethods(ledger, this.decimals.of), ...transactionMethods(ledger) };
    if (opts.airdrop === false) methods.requestAirdrop = airdropDisabled;
    this.dispatcher = new JsonRpcDispatcher(methods, { ...DEFAULT_DISPATCH_LIMITS, ...opts.limits }, logger, new KeptResults(ledger));
    const requestTimeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    // Node checks the timeouts every connectionsCheckingInterval (30 s by default): tighten it so
    // a slow-body client is cut off close to the limit, not up to 30 s later.
    const timeouts = {
      requestTimeout,
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, requestTimeout),
      connectionsCheckingInterval: Math.min(1000, requestTimeout / 4),
    };
    this.server = createServer(timeouts, (req, res) => {
      try {
        this.onRequest(req, res)?.catch((err: unknown) => this.onFailure(err, res));
      } catch (err) {
        this.onFailure(err, res);
      }
    });
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
    this.decimals.detach();
    return new Promise((resolve) => {
      const force = setTimeout(() => this.server.closeAllConnections(), 1000);
      this.server.close(() => {
        clearTimeout(force);
        resolve();
      });
      this.server.closeIdleConnections();
    });
  }

  /** The underlying node:http server (tests observe its connections). */
  get httpServer(): Server {
    return this.server;
  }

  /** Dispatches one JSON-RPC call object (also used by tests). */
  async call(req: unknown): Promise<Record<string, unknown>> {
    return this.dispatcher.call(req);
  }

  private onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> | void {
    if (!isAllowedOrigin(req.headers.origin)) throw new HttpRefusal(403, 'Forbidden: cross-origin requests are not accepted');
    // A loopback dev page (allowed above) may call us from a browser: answer its CORS preflight.
    if (req.headers.origin) res.setHeader('access-control-allow-origin', req.headers.origin);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'POST, OPTIONS',
        'access-control-allow-headers': 'content-type, solana-client',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    if (req.method === 'GET' && req.url === '/health') return this.reply(res, 200, 'ok', 'text/plain');
    if (req.method !== 'POST') throw new HttpRefusal(405, 'Used HTTP Method is not allowed. POST or OPTIONS is required');
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    if (type !== 'application/json')
      throw new HttpRefusal(415, 'Supplied content type is not allowed. Content-Type: application/json is required');
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > MAX_BODY_BYTES) throw new HttpRefusal(413, 'Payload Too Large');
    return this.readBody(req).then((raw) => this.answer(raw, res));
  }

  private answer(raw: string, res: ServerResponse): Promise<void> | void {
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return this.reply(res, 200, JSON.stringify(rpcErrorReply(RPC_PARSE_ERROR, 'Parse error')));
    }
    const out = this.dispatcher.handle(body);
    if (typeof out === 'string') return this.reply(res, 200, out);
    return out.then((text) => {
      if (!res.destroyed) this.reply(res, 200, text);
    });
  }

  /** Collects the body with plain listeners (cheaper than an async iterator); rejects on abort or overflow. */
  private readBody(req: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_BODY_BYTES) {
          req.removeAllListeners('data');
          req.pause();
          reject(new HttpRefusal(413, 'Payload Too Large'));
          return;
        }
        chunks.push(chunk);
      });
      req.once('end', () => resolve(chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8')));
      req.once('error', reject);
      req.once('aborted', () => reject(new Error('aborted')));
    });
  }

  /** A refusal gets its status; an aborted or broken connection is just closed, never a crash. */
  private onFailure(err: unknown, res: ServerResponse): void {
    if (err instanceof HttpRefusal && !res.headersSent && !res.destroyed) {
      res.setHeader('connection', 'close');
      this.reply(res, err.status, err.message, 'text/plain');
      return;
    }
    if (!(err instanceof HttpRefusal)) this.logger?.debug({ err }, 'json-rpc request dropped');
    res.destroy();
  }

  private reply(res: ServerResponse, status: number, body: string, type = 'application/json'): void {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }
}
