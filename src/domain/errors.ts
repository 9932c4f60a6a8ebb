/**
 * Domain errors: a stable machine code, a human message, a category the API maps to an HTTP
 * status, and optional extra fields the family's envelope carries (e.g. `marketStatus`).
 * Services and processors throw these; only `src/api` turns them into responses.
 */
export type ErrorKind =
  | 'invalid' // 400
  | 'unauthorized' // 401
  | 'payment_required' // 402
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'gone' // 410
  | 'rate_limited' // 429
  | 'unavailable'; // 503

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly code: string,
    message: string,
    readonly extra: Record<string, unknown> = {},
    /** Response headers the answer carries besides its body (x402's PAYMENT-REQUIRED / PAYMENT-RESPONSE). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }

  /** The same refusal with more response headers. */
  withHeaders(headers: Record<string, string>): DomainError {
    return new DomainError(this.kind, this.code, this.message, this.extra, { ...this.headers, ...headers });
  }

  toJSON(): SerializedDomainError {
    return { kind: this.kind, code: this.code, message: this.message, extra: this.extra };
  }

  static fromJSON(value: SerializedDomainError): DomainError {
    return new DomainError(value.kind, value.code, value.message, value.extra);
  }
}

export interface SerializedDomainError {
  kind: ErrorKind;
  code: string;
  message: string;
  extra: Record<string, unknown>;
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
