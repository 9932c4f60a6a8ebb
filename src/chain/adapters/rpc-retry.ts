/**
 * Retry with exponential backoff for calls to a real cluster: 429, 5xx and network failures are
 * retried; everything else is mapped to a ChainError at once. Final failures carry the
 * ChainError code a job needs to decide whether to try again later.
 */
import { ChainError } from '../chain-errors.js';

export interface RetryPolicy {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

const INVALID_PARAMS = -32602;
const INVALID_REQUEST = -32600;
/**
 * Solana's server errors that mean "this node has not got it yet" (block or status not available,
 * slot skipped, ledger jump, minimum context slot not reached): another try, or another node, can
 * answer. -32004, -32007, -32009, -32014, -32016.
 */
const NODE_NOT_READY = new Set([-32004, -32007, -32009, -32014, -32016]);

export const DEFAULT_RETRY: RetryPolicy = { attempts: 4, baseDelayMs: 250, maxDelayMs: 4000 };

export function classifyError(e: unknown): ChainError {
  if (e instanceof ChainError) return e;
  // web3.js keeps the JSON-RPC error code (SolanaJSONRPCError.code); -32602 is "Invalid params".
  const rpcCode = (e as { code?: unknown })?.code;
  if (rpcCode === INVALID_PARAMS || rpcCode === INVALID_REQUEST) return new ChainError('INVALID_PARAMS', (e as Error).message, e);
  if (typeof rpcCode === 'number' && NODE_NOT_READY.has(rpcCode)) return new ChainError('NODE_UNAVAILABLE', (e as Error).message, e);
  const msg = (e as Error)?.message ?? String(e);
  // web3.js refuses a malformed address before asking the node: the caller's input, not the node's failure.
  if (/Invalid public key input|Non-base58 character/i.test(msg)) return new ChainError('INVALID_PARAMS', msg, e);
  const cause = String((e as { cause?: { code?: string } })?.cause?.code ?? '');
  if (/\b429\b|Too Many Requests|rate limit/i.test(msg)) return new ChainError('RATE_LIMITED', msg, e);
  if (/\b50[0-4]\b|Service Unavailable|Bad Gateway|Node is (unhealthy|behind)/i.test(msg))
    return new ChainError('NODE_UNAVAILABLE', msg, e);
  if (/timed? ?out|ETIMEDOUT|AbortError/i.test(msg + cause)) return new ChainError('TIMEOUT', msg, e);
  if (/fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|socket hang up|network/i.test(msg + cause))
    return new ChainError('NODE_UNAVAILABLE', msg, e);
  return new ChainError('UNKNOWN', msg, e);
}

const TRANSPORT_CODES = new Set(['RATE_LIMITED', 'NODE_UNAVAILABLE', 'TIMEOUT']);

export async function withRetry<T>(fn: () => Promise<T>, policy: RetryPolicy = DEFAULT_RETRY): Promise<T> {
  let last: ChainError | undefined;
  for (let attempt = 0; attempt < policy.attempts; attempt++) {
    try {
      return await fn();
    } catch (e) {
      last = classifyError(e);
      if (!TRANSPORT_CODES.has(last.code) || attempt === policy.attempts - 1) throw last;
      const delay = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** attempt);
      await new Promise((r) => setTimeout(r, delay * (0.5 + Math.random() / 2)));
    }
  }
  throw last ?? new ChainError('UNKNOWN', 'retry loop exhausted');
}
