/**
 * The three families' error envelopes (docs/api.md; the spec's "Response envelopes"), and one
 * error class for all of them, so a caller switches on `code` whatever family answered:
 *   A: {success: false, error: {code, message}, ...extra}
 *   B: {success: false, error: "message", code, ...extra}
 *   C: {error: "CODE", message, ...extra}
 */
export interface FamilyAErrorBody {
  success: false;
  error: { code: string; message: string };
  [extra: string]: unknown;
}
export interface FamilyBErrorBody {
  success: false;
  error: string;
  code: string;
  [extra: string]: unknown;
}
export interface FamilyCErrorBody {
  error: string;
  message: string;
  [extra: string]: unknown;
}
export type PmxErrorBody = FamilyAErrorBody | FamilyBErrorBody | FamilyCErrorBody;

/** Which envelope a body is in, with its code and message (`UNKNOWN` for a body in none of them). */
export function readErrorBody(body: unknown): { family: 'A' | 'B' | 'C' | undefined; code: string; message: string } {
  const b = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const error = b.error as unknown;
  if (typeof error === 'object' && error !== null) {
    const e = error as Record<string, unknown>;
    return { family: 'A', code: String(e.code), message: String(e.message) };
  }
  if (typeof error === 'string' && typeof b.code === 'string') return { family: 'B', code: b.code, message: error };
  if (typeof error === 'string') return { family: 'C', code: error, message: String(b.message) };
  return { family: undefined, code: 'UNKNOWN', message: typeof body === 'string' ? body : JSON.stringify(body) };
}

export class PmxApiError extends Error {
  readonly family: 'A' | 'B' | 'C' | undefined;
  readonly code: string;
  constructor(
    readonly status: number,
    /** The whole envelope, with its extra fields (e.g. `available` and `required` of INSUFFICIENT_BALANCE). */
    readonly body: PmxErrorBody | unknown,
    readonly request: string,
  ) {
    const { family, code, message } = readErrorBody(body);
    super(`${request}: ${status} ${code}: ${message}`);
    this.name = 'PmxApiError';
    this.family = family;
    this.code = code;
  }
}

/** The path and query of a URL, for messages (a custom fetch may answer a Response without a URL). */
function requestPath(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url || 'request';
  }
}

/**
 * The data of an openapi-fetch answer, or a PmxApiError carrying its envelope:
 * `const { orders } = await unwrap(api.GET('/v2/clob/orders', { params: { query: { pubkey } } }))`.
 */
export async function unwrap<D>(pending: Promise<{ data?: D; error?: unknown; response: Response }>): Promise<D> {
  const { data, error, response } = await pending;
  if (error !== undefined || !response.ok) throw new PmxApiError(response.status, error, requestPath(response.url));
  return data as D;
}
