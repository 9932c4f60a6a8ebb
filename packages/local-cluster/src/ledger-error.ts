/**
 * What the ledger refuses before a transaction lands, in a node's own terms: a failed preflight
 * (the transaction error and logs, as `sendTransaction` reports them), a bad signature, a node
 * that is not serving (closed, or a fault injected), or bytes that are not a transaction. The
 * JSON-RPC server answers each with Solana's error code; an in-process client maps `kind` to
 * its own error type.
 */
export type LedgerRefusal = 'preflight' | 'signature' | 'unavailable' | 'invalid';

export class LedgerError extends Error {
  constructor(
    readonly kind: LedgerRefusal,
    message: string,
    /** The transaction error (JSON, as in a transaction's `meta.err`), for `preflight`. */
    readonly err?: unknown,
    readonly logs: string[] = [],
  ) {
    super(message);
    this.name = 'LedgerError';
  }
}

/** The refusal a preflight (simulation before send) failure surfaces as. */
export function preflightError(err: unknown, logs: string[], text: string): LedgerError {
  return new LedgerError('preflight', `Transaction simulation failed: ${text}`, err, logs);
}
