/**
 * JSON-RPC 2.0 dispatch with the limits that keep one client from stalling the daemon: request
 * shape checks (-32600), unknown methods (-32601), a bounded batch, a yield to the event loop
 * between calls that have used the loop for a while (so /health and the API keep answering
 * during a batch), and a byte budget for the serialized answer (Agave's scan error -32012
 * instead of building a string V8 cannot hold).
 */
import type { Logger } from 'pino';
import type { KeptResults } from './rpc-kept-results.js';
import {
  RpcError,
  RPC_INTERNAL_ERROR,
  RPC_INVALID_PARAMS,
  RPC_INVALID_REQUEST,
  RPC_METHOD_NOT_FOUND,
  RPC_SCAN_ERROR,
  type RpcMethod,
} from './rpc-error.js';

export interface DispatchLimits {
  /** Calls per batch (Agave's 50 KiB body admits ~450 of the smallest; we cap lower). */
  maxBatch: number;
  /** Bytes of serialized JSON for a whole answer, batch included. */
  maxResponseBytes: number;
  /** A batch yields to the event loop after this much continuous work. */
  sliceMs: number;
}

export const DEFAULT_DISPATCH_LIMITS: DispatchLimits = { maxBatch: 100, maxResponseBytes: 16 * 1024 * 1024, sliceMs: 5 };

type Reply = Record<string, unknown>;

const ALWAYS_DELIVERED_BYTES = 1024;

export function rpcErrorReply(code: number, message: string, id: unknown = null, data?: unknown): Reply {
  return { jsonrpc: '2.0', error: { code, message, ...(data !== undefined ? { data } : {}) }, id };
}

function validId(id: unknown): boolean {
  return id === undefined || id === null || typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
}

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

export class JsonRpcDispatcher {
  constructor(
    private readonly methods: Record<string, RpcMethod>,
    private readonly limits: DispatchLimits = DEFAULT_DISPATCH_LIMITS,
    private readonly logger?: Logger,
    /** Kept result JSON of account reads (rpc-kept-results.ts); none: every call runs. */
    private readonly kept?: KeptResults,
  ) {}

  /** One call object; never throws. Synchronous methods answer without a promise hop. */
  call(req: unknown): Reply | Promise<Reply> {
    if (typeof req !== 'object' || req === null || Array.isArray(req)) return rpcErrorReply(RPC_INVALID_REQUEST, 'Invalid request');
    const { id, method: name, params, jsonrpc } = req as Record<string, unknown>;
    if (!validId(id) || (jsonrpc !== undefined && jsonrpc !== '2.0') || typeof name !== 'string') {
      return rpcErrorReply(RPC_INVALID_REQUEST, 'Invalid request', validId(id) ? (id ?? null) : null);
    }
    const replyId = id ?? null;
    const method = Object.hasOwn(this.methods, name) ? this.methods[name] : undefined;
    if (!method) return rpcErrorReply(RPC_METHOD_NOT_FOUND, 'Method not found', replyId);
    if (params !== undefined && params !== null && !Array.isArray(params))
      return rpcErrorReply(RPC_INVALID_PARAMS, 'Invalid params: expected an array', replyId);
    try {
      return this.settle(method(params ?? []), name, replyId);
    } catch (e) {
      return this.failure(e, name, replyId);
    }
  }

  private settle(result: unknown, name: string, replyId: unknown): Reply | Promise<Reply> {
    if (result instanceof Promise)
      return result.then(
        (r: unknown) => ({ jsonrpc: '2.0', result: r, id: replyId }),
        (e: unknown) => this.failure(e, name, replyId),
      );
    return { jsonrpc: '2.0', result, id: replyId };
  }

  private failure(e: unknown, method: string, id: unknown): Reply {
    if (e instanceof RpcError) return rpcErrorReply(e.code, e.message, id, e.data);
    this.logger?.error({ err: e, method }, 'json-rpc method failed');
    return rpcErrorReply(RPC_INTERNAL_ERROR, 'Internal error', id);
  }

  /** A parsed request body (single call or batch) → the serialized answer; never throws. */
  handle(body: unknown): string | Promise<string> {
    if (!Array.isArray(body)) {
      const kept = this.kept === undefined ? undefined : this.keptAnswer(body, this.kept);
      if (kept !== undefined) return kept;
      const reply = this.call(body);
      return reply instanceof Promise
        ? reply.then((r) => this.serialize(r, this.limits.maxResponseBytes))
        : this.serialize(reply, this.limits.maxResponseBytes);
    }
    return this.batch(body);
  }

  /**
   * A well-formed call of a kept method: its result JSON from the cache, or made and kept, in
   * the bytes JSON.stringify gives the whole reply. undefined (nothing run) for anything else,
   * which the ordinary path answers, its errors included.
   */
  private keptAnswer(req: unknown, kept: KeptResults): string | Promise<string> | undefined {
    if (typeof req !== 'object' || req === null) return undefined;
    const { id, method: name, params, jsonrpc } = req as Record<string, unknown>;
    if (typeof name !== 'string' || !kept.methods.has(name) || !Object.hasOwn(this.methods, name)) return undefined;
    if (!validId(id) || (jsonrpc !== undefined && jsonrpc !== '2.0')) return undefined;
    if (params !== undefined && params !== null && !Array.isArray(params)) return undefined;
    const replyId = id ?? null;
    const args = (params ?? []) as unknown[];
    let key: string;
    try {
      key = `${name} ${JSON.stringify(args)}`;
    } catch {
      return undefined; // not a parsed JSON body (handle's callers pass one)
    }
    const budget = this.limits.maxResponseBytes;
    let text = kept.get(key);
    if (text === undefined) {
      let settled: Reply | Promise<Reply>;
      try {
        settled = this.settle(this.methods[name]!(args), name, replyId);
      } catch (e) {
        return this.serialize(this.failure(e, name, replyId), budget);
      }
      if (settled instanceof Promise) return settled.then((r) => this.serialize(r, budget));
      let made: string | undefined;
      try {
        made = JSON.stringify(settled.result);
      } catch (e) {
        if (!(e instanceof RangeError)) throw e;
      }
      if (made === undefined) return this.serialize(settled, budget);
      kept.set(key, made);
      text = made;
    }
    // JSON.stringify of { jsonrpc, result, id }, byte for byte (the ids validId admits are
    // null, strings and finite numbers).
    const reply = `{"jsonrpc":"2.0","result":${text},"id":${JSON.stringify(replyId)}}`;
    return reply.length <= budget || reply.length <= ALWAYS_DELIVERED_BYTES ? reply : this.tooLarge({ id: replyId });
  }

  private async batch(body: unknown[]): Promise<string> {
    if (body.length === 0) return JSON.stringify(rpcErrorReply(RPC_INVALID_REQUEST, 'Invalid request: empty batch'));
    if (body.length > this.limits.maxBatch) {
      return JSON.stringify(
        rpcErrorReply(RPC_INVALID_REQUEST, `Invalid request: batch of ${body.length} calls exceeds the limit of ${this.limits.maxBatch}`),
      );
    }
    const parts: string[] = [];
    let budget = this.limits.maxResponseBytes;
    let sliceStart = performance.now();
    for (const item of body) {
      if (performance.now() - sliceStart > this.limits.sliceMs) {
        await yieldToLoop();
        sliceStart = performance.now();
      }
      // Once the budget is spent, the remaining calls are refused without being run.
      const part = budget > 0 ? this.serialize(await this.call(item), budget) : this.tooLarge(item);
      budget -= part.length + 1;
      parts.push(part);
    }
    return `[${parts.join(',')}]`;
  }

  /** JSON of one reply within `budget` characters, or a scan error naming the limit. */
  private serialize(reply: Reply, budget: number): string {
    let text: string | undefined;
    try {
      text = JSON.stringify(reply);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
    }
    // A small answer is always delivered, even past the budget: it may be the signature of a
    // transaction that has landed, and a client told "error" would pay twice.
    if (text !== undefined && (text.length <= budget || text.length <= ALWAYS_DELIVERED_BYTES)) return text;
    return this.tooLarge(reply);
  }

  private tooLarge(req: unknown): string {
    const id =
      typeof req === 'object' && req !== null && validId((req as { id?: unknown }).id) ? ((req as { id?: unknown }).id ?? null) : null;
    return JSON.stringify(
      rpcErrorReply(
        RPC_SCAN_ERROR,
        `Response exceeds the ${this.limits.maxResponseBytes}-byte limit; narrow the query (filters, dataSlice, fewer calls per batch)`,
        id,
      ),
    );
  }
}
