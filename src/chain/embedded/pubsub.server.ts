/**
 * Solana PubSub over WebSocket (default port 8900 = rpc port + 1): signature, account, program,
 * slot and logs subscriptions fed by the ledger's events, so `connection.confirmTransaction`,
 * `onAccountChange`, `onProgramAccountChange`, `onSlotChange` and `onLogs` work unchanged.
 */
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Logger } from 'pino';
import { matchesFilters } from '../adapters/account-filters.js';
import type { ProgramAccountFilter } from '../chain-client.js';
import type { EmbeddedLedger } from './ledger.js';
import { encodeAccount, type AccountEncoding } from './rpc-encoding.js';
import type { StoredAccount } from './svm-accounts.js';
import type { TransactionRecord } from './transaction-record.store.js';

interface Subscription {
  socket: WebSocket;
  kind: 'signature' | 'account' | 'program' | 'slot' | 'logs';
  key: string | null;
  encoding?: AccountEncoding;
  filters?: ProgramAccountFilter[];
}

const NOTIFICATION: Record<Subscription['kind'], string> = {
  signature: 'signatureNotification', account: 'accountNotification', program: 'programNotification', slot: 'slotNotification', logs: 'logsNotification',
};

export class PubSubServer {
  private wss: WebSocketServer | null = null;
  private readonly subs = new Map<number, Subscription>();
  private nextId = 1;
  private readonly listeners: [string, Parameters<EmbeddedLedger['events']['on']>[1]][];

  constructor(private readonly ledger: EmbeddedLedger, private readonly logger?: Logger) {
    const decimalsOf = (mint: string) => ledger.getTokenSupply(mint)?.decimals ?? 0;
    const onTx = (rec: TransactionRecord) => {
      for (const [id, s] of this.subs) {
        if (s.kind === 'signature' && s.key === rec.signature) {
          this.notify(id, s, { context: { slot: rec.slot }, value: { err: rec.err } });
          this.subs.delete(id);
        } else if (s.kind === 'logs' && (s.key === null || rec.accountKeys.includes(s.key))) {
          this.notify(id, s, { context: { slot: rec.slot }, value: { signature: rec.signature, err: rec.err, logs: rec.logs } });
        }
      }
    };
    const onAccount = (e: { address: string; account: StoredAccount | null; slot: number }) => {
      const acc = e.account ?? { owner: '11111111111111111111111111111111', lamports: 0n, data: new Uint8Array(0), executable: false };
      for (const [id, s] of this.subs) {
        if (s.kind === 'account' && s.key === e.address) {
          this.notify(id, s, { context: { slot: e.slot }, value: encodeAccount(acc, s.encoding, decimalsOf) });
        } else if (s.kind === 'program' && s.key === acc.owner && matchesFilters(acc.data, s.filters ?? [])) {
          this.notify(id, s, { context: { slot: e.slot }, value: { pubkey: e.address, account: encodeAccount(acc, s.encoding, decimalsOf) } });
        }
      }
    };
    const onSlot = (slot: number) => {
      for (const [id, s] of this.subs) if (s.kind === 'slot') this.notify(id, s, { parent: slot - 1, root: slot, slot });
    };
    this.listeners = [['transaction', onTx], ['account', onAccount], ['slot', onSlot]];
  }

  listen(port: number, host = '127.0.0.1'): Promise<number> {
    return new Promise((resolve, reject) => {
      const wss = new WebSocketServer({ port, host });
      wss.once('error', reject);
      wss.once('listening', () => {
        wss.off('error', reject);
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
    socket.on('message', (data) => {
      let req: { id?: unknown; method?: unknown; params?: unknown };
      try {
        req = JSON.parse(String(data)) as typeof req;
      } catch {
        socket.send(JSON.stringify({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }));
        return;
      }
      socket.send(JSON.stringify(this.handle(socket, req)));
    });
    socket.on('close', () => {
      for (const [id, s] of this.subs) if (s.socket === socket) this.subs.delete(id);
    });
    socket.on('error', (err) => this.logger?.debug({ err }, 'pubsub socket error'));
  }

  private handle(socket: WebSocket, req: { id?: unknown; method?: unknown; params?: unknown }): Record<string, unknown> {
    const id = req.id ?? null;
    const params = Array.isArray(req.params) ? req.params : [];
    const method = typeof req.method === 'string' ? req.method : '';
    const cfg = (params[1] && typeof params[1] === 'object' ? params[1] : {}) as { encoding?: AccountEncoding; filters?: ProgramAccountFilter[] };
    const unsub = /^(signature|account|program|slot|logs)Unsubscribe$/.exec(method);
    if (unsub) {
      const subId = Number(params[0]);
      const s = this.subs.get(subId);
      if (!s || s.socket !== socket) return { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid subscription id.' }, id };
      this.subs.delete(subId);
      return { jsonrpc: '2.0', result: true, id };
    }
    const sub = /^(signature|account|program|slot|logs)Subscribe$/.exec(method);
    if (!sub) return { jsonrpc: '2.0', error: { code: -32601, message: 'Method not found' }, id };
    const kind = sub[1] as Subscription['kind'];
    let key: string | null = null;
    if (kind === 'signature' || kind === 'account' || kind === 'program') {
      if (typeof params[0] !== 'string') return { jsonrpc: '2.0', error: { code: -32602, message: 'Invalid params' }, id };
      key = params[0];
    } else if (kind === 'logs') {
      const mentions = (params[0] as { mentions?: string[] } | undefined)?.mentions;
      key = Array.isArray(mentions) ? (mentions[0] ?? null) : null;
    }
    const subId = this.nextId++;
    const s: Subscription = { socket, kind, key, encoding: cfg.encoding, filters: cfg.filters };
    this.subs.set(subId, s);
    if (kind === 'signature') {
      const status = this.ledger.getSignatureStatus(key!);
      if (status) {
        // Already landed: notify right after the subscription id reaches the client.
        setImmediate(() => {
          if (this.subs.delete(subId)) this.notify(subId, s, { context: { slot: status.slot }, value: { err: status.err } });
        });
      }
    }
    return { jsonrpc: '2.0', result: subId, id };
  }

  private notify(subscription: number, s: Subscription, result: unknown): void {
    if (s.socket.readyState !== s.socket.OPEN) return;
    s.socket.send(JSON.stringify({ jsonrpc: '2.0', method: NOTIFICATION[s.kind], params: { result, subscription } }));
  }
}
