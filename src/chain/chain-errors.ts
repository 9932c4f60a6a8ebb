/**
 * Typed chain failures. `retryable` tells a job whether trying again can help (rate limits,
 * timeouts, an expired blockhash after a rebuild) or not (a program error, a bad signature).
 */
export type ChainErrorCode =
  | 'RATE_LIMITED'
  | 'NODE_UNAVAILABLE'
  | 'TIMEOUT'
  | 'BLOCKHASH_NOT_FOUND'
  | 'ALREADY_PROCESSED'
  | 'SIGNATURE_VERIFICATION_FAILED'
  | 'INSUFFICIENT_FUNDS'
  | 'ACCOUNT_NOT_FOUND'
  | 'PROGRAM_ERROR'
  | 'INVALID_TRANSACTION'
  /** The node refused the request's parameters (JSON-RPC -32602), e.g. a malformed signature: the caller's input, not the node. */
  | 'INVALID_PARAMS'
  | 'UNKNOWN';

const RETRYABLE: ReadonlySet<ChainErrorCode> = new Set(['RATE_LIMITED', 'NODE_UNAVAILABLE', 'TIMEOUT', 'BLOCKHASH_NOT_FOUND']);

export class ChainError extends Error {
  readonly retryable: boolean;

  constructor(
    readonly code: ChainErrorCode,
    message: string,
    /** The raw transaction error or RPC error payload, for logs and callers that inspect it. */
    readonly detail?: unknown,
  ) {
    super(message);
    this.name = 'ChainError';
    this.retryable = RETRYABLE.has(code);
  }
}
