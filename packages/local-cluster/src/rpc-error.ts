// JSON-RPC 2.0 errors with Solana's server error codes.
import { BASE58_PUBKEY } from '@pmx/programs';
import { addressBytes } from './svm-raw.js';

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'RpcError';
  }
}

export const RPC_PARSE_ERROR = -32700;
export const RPC_INVALID_REQUEST = -32600;
export const RPC_INVALID_PARAMS = -32602;
export const RPC_INTERNAL_ERROR = -32603;
/** Agave's JSON_RPC_SCAN_ERROR: a query whose answer exceeds the server's byte limit. */
export const RPC_SCAN_ERROR = -32012;
export const RPC_METHOD_NOT_FOUND = -32601;
export const RPC_SEND_TX_PREFLIGHT_FAILURE = -32002;
export const RPC_SIGNATURE_VERIFICATION_FAILURE = -32003;
export const RPC_NODE_UNHEALTHY = -32005;
export const RPC_UNSUPPORTED_TX_VERSION = -32015;

export type RpcMethod = (params: unknown[]) => unknown;

export function invalidParams(message: string): RpcError {
  return new RpcError(RPC_INVALID_PARAMS, `Invalid params: ${message}`);
}

/** A base58 public key parameter, validated (decodes to exactly 32 bytes). */
export function keyParam(v: unknown, name = 'pubkey'): string {
  if (typeof v !== 'string' || !BASE58_PUBKEY.test(v)) throw invalidParams(`Invalid ${name}`);
  try {
    addressBytes(v); // decodes to exactly 32 bytes; cached, and the ledger's read reuses it
  } catch {
    throw invalidParams(`Invalid ${name}`);
  }
  return v;
}
