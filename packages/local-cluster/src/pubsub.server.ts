/**
 * Solana PubSub over WebSocket (default port 8900 = rpc port + 1): signature, account, program,
 * slot and logs subscriptions fed by the ledger's events, so `connection.confirmTransaction`,
 * `onAccountChange`, `onProgramAccountChange`, `onSlotChange` and `onLogs` work unchanged.
 *
 * Hostile input never escapes: every frame handler and every ledger listener is wrapped, so a
 * bad message gets a JSON-RPC error and a failing notification is logged and dropped (it never
 * reaches the ledger's commit path or other subscribers). Parameters are validated at subscribe
 * time (-32602); frames are capped (ws closes with 1009); browser origins other than loopback
 * are refused at the handshake; a client that stops reading is disconnected.
 */
import type { IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Logger } from 'pino';
import { rpcErrorReply } from './json-rpc.dispatch.js';
import type { EmbeddedLedger } from './ledger.js';
import { encodeAccount, type AccountEncoding } from './rpc-encoding.js';
import {
  RpcError,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_PARAMS,
  RPC_INVALID_REQUEST,
  RPC_METHOD_NOT_FOUND,
  RPC_PARSE_ERROR,
  keyParam,
  invalidParams,
} from './rpc-error.js';
import { isAllowedOrigin } from './rpc-origin.js';
import {
  accountEncodingParam,
  configObject,
  filtersParam,
  intParam,
  isObject,
  matchesCompiled,
  signatureParam,
  type CompiledFilter,
} from './rpc-params.js';
import type { StoredAccount } from './svm-accounts.js';
import type { TransactionRecord } from './transaction-record.store.js';

/** Frame cap: subscribe requests are tiny (Agave's pubsub caps frames at 50 KiB too). */
export const MAX_FRAME_BYTES = 64 * 1024;
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 1000;
/** Unsent notifications above this mean the client is not reading: drop it. */
const MAX_BUFFERED_BYTES = 16 * 1024 * 1024;

interface Subscription {
  socket: WebSocket;
  kind: 'signature' | 'account' | 'program' | 'slot' | 'logs';
  key: string | null;
  encoding?: AccountEncoding;
  filters: CompiledFilter[];
}

const NOTIFICATION: Record<Subscription['kind'], string> = {
  signature: 'signatureNotification',
  account: 'accountNotification',
  program: 'programNotification',
  slot: 'slotNotification',
  logs: 'logsNotification',
};

export class PubSubServer {
  private wss: WebSocketServer | null = null;
  private readonly subs = new Map<number, Subscription>();
  private nextId = 1;
  private readonly listeners: [string, Parameters<EmbeddedLedger['events']['on']>[1]][];

  constructor(
    private readonly ledger: EmbeddedLedger,
    private readonly logger?: Logger,
  ) {
    const decimalsOf = (mint: string) => ledger.getTokenSupply(mint)?.decimals ?? 0;
    const onTx = (rec: TransactionRecord) => {
      for (const [id, s] of this.subs) {
        if (s.kind === 'signature' && s.key === rec.signature) {
          this.subs.delete(id);
          this.notify(id, s, () => ({ context: { slot: rec.slot }, value: { err: rec.err } }));
        } else if (s.kind === 'logs' && (s.key === null || rec.accountKeys.includes(s.key))) {
          this.notify(id, s, () => ({ context: { slot: rec.slot }, value: { signature: rec.signature, err: rec.err, logs: rec.logs } }));
        }
      }
    };
    const onAccount = (e: { address: string; account: StoredAccount | null; slot: number }) => {
      const acc = e.account ?? { owner: '11111111111111111111111111111111', lamports: 0n, data: new Uint8Array(0), executable: false };
      for (const [id, s] of this.subs) {
        if (s.kind === 'account' && s.key === e.address) {
          this.notify(id, s, () => ({ context: { slot: e.slot }, value: encodeAccount(acc, s.encoding, decimalsOf) }));
        } else if (s.kind === 'program' && s.key === acc.owner && matchesCompiled(acc.data, s.filters)) {
          this.notify(id, s, () => ({
            context: { slot: e.slot },
            value: { pubkey: e.address, account: encodeAccount(acc, s.encoding, decimalsOf) },
          }));
        }
      }
    };
    const onSlot = (slot: number) => {
      for (const [id, s] of this.subs) if (s.kind === 'slot') this.notify(id, s, () => ({ parent: slot - 1, root: slot, slot }));
    };
    // Belt and braces: the per-notification guard already catches; this guards the loops.
    const guard =
      <A extends unknown[]>(name: string, fn: (...a: A) => void) =>
      (...a: A) => {
        try {
          fn(...a);
        } catch (err) {
          this.logger?.error({ err, event: name }, 'pubsub listener failed');
        }
      };
    this.listeners = [
      ['transaction', guard('transaction', onTx)],
      ['account', guard('account', onAccount)],
      ['slot', guard('slot', onSlot)],
    ];
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    return new Promise((resolve, reject) => {
      const wss = new WebSocketServer({
        port,
        host,
        maxPayload: MAX_FRAME_BYTES,
        verifyClient: ({ req }: { req: IncomingMessage }, done: (ok: boolean, status?: number, message?: string) => void) => {
          if (isAllowedOrigin(req.headers.origin)) done(true);
          else done(false, 403, 'Forbidden: cross-origin WebSocket connections are not accepted');
        },
      });
      wss.once('error', reject);
      wss.once('listening', () => {
        wss.off('error', reject);
        wss.on('error', (err) => this.logger?.error({ err }, 'pubsub server error'));
        this.wss = wss;
        for (const [event, fn] of this.listeners) this.ledger.events.on(event, fn);
        wss.on('connection', (socket) => this.onConnection(socket));
        resolve((wss.address() as AddressInfo).port);
      });
    });
  }

  async close(): Promise<void> {
    for (const [event, fn] of this.listeners) this.ledger.events.off(event, fn);
    this.subs.clear();
    const wss = this.wss;
    if (!wss) return;
    for (const client of wss.clients) client.terminate();
    await new Promise<void>((resolve) => wss.close(() => resolve()));
  }

  private onConnection(socket: WebSocket): void {
    socket.on('message', (data, isBinary) => {
      try {
        this.send(socket, this.onFrame(socket, data, isBinary));
      } catch (err) {
        this.logger?.error({ err }, 'pubsub frame handler failed');
        this.send(socket, rpcErrorReply(RPC_INTERNAL_ERROR, 'Internal error'));
      }
    });
    socket.on('close', () => {
      for (const [id, s] of this.subs) if (s.socket === socket) this.subs.delete(id);
    });
    socket.on('error', (err) => this.logger?.debug({ err }, 'pubsub socket error'));
  }

  private onFrame(socket: WebSocket, data: RawData, isBinary: boolean): Record<string, unknown> {
    if (isBinary) return rpcErrorReply(RPC_INVALID_REQUEST, 'Invalid request: binary frames are not supported');
    let req: unknown;
    try {
      req = JSON.parse(String(data));
    } catch {
      return rpcErrorReply(RPC_PARSE_ERROR, 'Parse error');
    }
    if (!isObject(req)) return rpcErrorReply(RPC_INVALID_REQUEST, 'Invalid request');
    const id = typeof req.id === 'string' || (typeof req.id === 'number' && Number.isFinite(req.id)) ? req.id : null;
    if (typeof req.method !== 'string' || (req.jsonrpc !== undefined && req.jsonrpc !== '2.0'))
      return rpcErrorReply(RPC_INVALID_REQUEST, 'Invalid request', id);
    if (req.params !== undefined && req.params !== null && !Array.isArray(req.params))
      return rpcErrorReply(RPC_INVALID_PARAMS, 'Invalid params: expected an array', id);
    try {
      return { jsonrpc: '2.0', result: this.dispatch(socket, req.method, (req.params ?? []) as unknown[]), id };
    } catch (e) {
      if (e instanceof RpcError) return rpcErrorReply(e.code, e.message, id);
      throw e;
    }
  }

  private dispatch(socket: WebSocket, method: string, params: unknown[]): number | boolean {
    const unsub = /^(signature|account|program|slot|logs)Unsubscribe$/.exec(method);
    if (unsub) {
      const subId = intParam(params[0], 'subscription id');
      const s = this.subs.get(subId);
      if (!s || s.socket !== socket || s.kind !== unsub[1]) throw new RpcError(RPC_INVALID_PARAMS, 'Invalid subscription id.');
      this.subs.delete(subId);
      return true;
    }
    const sub = /^(signature|account|program|slot|logs)Subscribe$/.exec(method);
    if (!sub) throw new RpcError(RPC_METHOD_NOT_FOUND, 'Method not found');
    let owned = 0;
    for (const s of this.subs.values()) if (s.socket === socket) owned++;
    if (owned >= MAX_SUBSCRIPTIONS_PER_SOCKET) throw invalidParams(`at most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions per connection`);
    const s = this.subscription(socket, sub[1] as Subscription['kind'], params);
    const subId = this.nextId++;
    this.subs.set(subId, s);
    const status = s.kind === 'signature' ? this.ledger.getSignatureStatus(s.key!) : null;
    if (status) {
      // Already landed: notify right after the subscription id reaches the client.
      setImmediate(() => {
        if (this.subs.delete(subId)) this.notify(subId, s, () => ({ context: { slot: status.slot }, value: { err: status.err } }));
      });
    }
    return subId;
  }

  /** Validates one subscribe call's params (all of them, before anything is registered). */
  private subscription(socket: WebSocket, kind: Subscription['kind'], params: unknown[]): Subscription {
    const cfg = configObject(params[1]);
    if (kind === 'signature') return { socket, kind, key: signatureParam(params[0]), filters: [] };
    if (kind === 'account') return { socket, kind, key: keyParam(params[0]), encoding: accountEncodingParam(cfg.encoding), filters: [] };
    if (kind === 'program') {
      return {
        socket,
        kind,
        key: keyParam(params[0], 'program id'),
        encoding: accountEncodingParam(cfg.encoding),
        filters: filtersParam(cfg.filters),
      };
    }
    if (kind === 'logs') {
      const f = params[0];
      if (f === 'all' || f === 'allWithVotes') return { socket, kind, key: null, filters: [] };
      if (isObject(f) && Array.isArray(f.mentions) && f.mentions.length === 1)
        return { socket, kind, key: keyParam(f.mentions[0], 'mentions'), filters: [] };
      throw invalidParams('logs filter must be "all", "allWithVotes" or {mentions: [one address]}');
    }
    return { socket, kind, key: null, filters: [] };
  }

  /** Builds and sends one notification; any failure is this subscriber's alone. */
  private notify(subscription: number, s: Subscription, result: () => unknown): void {
    if (s.socket.readyState !== s.socket.OPEN) return;
    try {
      this.send(s.socket, { jsonrpc: '2.0', method: NOTIFICATION[s.kind], params: { result: result(), subscription } });
    } catch (err) {
      this.logger?.error({ err, subscription, kind: s.kind }, 'pubsub notification failed');
    }
  }

  private send(socket: WebSocket, message: Record<string, unknown>): void {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > MAX_BUFFERED_BYTES) {
      this.logger?.warn('pubsub client is not reading its notifications; disconnecting');
      socket.terminate();
      return;
    }
    socket.send(JSON.stringify(message));
  }
}
