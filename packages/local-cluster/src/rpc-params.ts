/**
 * Parameter validation shared by every JSON-RPC and PubSub method. Anything a client can send is
 * checked here and refused with -32602 (quietly: a bad parameter is the client's error, not a
 * server fault), so no method ever reaches the ledger with NaN, a negative length or a filter
 * that throws later. Limits follow Agave's RPC where it has one.
 */
import bs58 from 'bs58';
import { BASE58_SIGNATURE, BASE58_TEXT } from '@pmx/programs';
import { invalidParams } from './rpc-error.js';
import type { AccountEncoding } from './rpc-encoding.js';

/** Agave's MAX_PERMITTED_DATA_LENGTH: no account can be larger, so no rent question is either. */
export const MAX_ACCOUNT_DATA_LENGTH = 10 * 1024 * 1024;
/** Agave: MAX_GET_PROGRAM_ACCOUNT_FILTERS and the memcmp MAX_DATA_SIZE (bytes, decoded). */
export const MAX_FILTERS = 4;
export const MAX_MEMCMP_BYTES = 128;

const ACCOUNT_ENCODINGS = new Set(['base58', 'base64', 'base64+zstd', 'jsonParsed']);
const TX_ENCODINGS = new Set(['json', 'jsonParsed', 'base58', 'base64']);

/** A filter whose memcmp bytes are decoded once, at validation time. */
export interface CompiledFilter {
  dataSize?: number;
  memcmp?: { offset: number; bytes: Uint8Array };
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** An optional config object: absent/null → {}, anything but a plain object → -32602. */
export function configObject(v: unknown): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (!isObject(v)) throw invalidParams('expected a configuration object');
  return v;
}

/** A non-negative safe integer at most `max` (rejects NaN, fractions, negatives, strings). */
export function intParam(v: unknown, name: string, max = Number.MAX_SAFE_INTEGER, min = 0): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
    throw invalidParams(`${name} must be an integer between ${min} and ${max}`);
  return v;
}

export function optionalInt(v: unknown, name: string, max?: number, min?: number): number | undefined {
  return v === undefined || v === null ? undefined : intParam(v, name, max, min);
}

export function accountEncodingParam(v: unknown): AccountEncoding | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !ACCOUNT_ENCODINGS.has(v)) throw invalidParams('unknown account encoding');
  return v as AccountEncoding;
}

export function txEncodingParam(v: unknown): string {
  if (v === undefined || v === null) return 'json';
  if (typeof v !== 'string' || !TX_ENCODINGS.has(v)) throw invalidParams('unknown transaction encoding');
  return v;
}

export function dataSliceParam(v: unknown): { offset: number; length: number } | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw invalidParams('dataSlice must be {offset, length}');
  return {
    offset: intParam(v.offset, 'dataSlice.offset', MAX_ACCOUNT_DATA_LENGTH),
    length: intParam(v.length, 'dataSlice.length', MAX_ACCOUNT_DATA_LENGTH),
  };
}

/** A base58 transaction signature (64 bytes → 86–88 characters). */
export function signatureParam(v: unknown, name = 'signature'): string {
  if (typeof v !== 'string' || !BASE58_SIGNATURE.test(v)) throw invalidParams(`invalid ${name}`);
  return v;
}

export function optionalSignature(v: unknown, name: string): string | undefined {
  return v === undefined || v === null ? undefined : signatureParam(v, name);
}

/** getProgramAccounts / programSubscribe filters: at most 4, each dataSize or memcmp, decoded now. */
export function filtersParam(v: unknown): CompiledFilter[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.length > MAX_FILTERS) throw invalidParams(`filters must be an array of at most ${MAX_FILTERS}`);
  return v.map((f: unknown) => {
    if (!isObject(f)) throw invalidParams('each filter must be an object');
    if (f.dataSize !== undefined) return { dataSize: intParam(f.dataSize, 'dataSize', MAX_ACCOUNT_DATA_LENGTH) };
    if (f.memcmp !== undefined) return { memcmp: memcmpParam(f.memcmp) };
    throw invalidParams('unknown filter (expected dataSize or memcmp)');
  });
}

function memcmpParam(m: unknown): { offset: number; bytes: Uint8Array } {
  if (!isObject(m) || typeof m.bytes !== 'string') throw invalidParams('memcmp must be {offset, bytes}');
  const offset = intParam(m.offset, 'memcmp.offset', MAX_ACCOUNT_DATA_LENGTH);
  const encoding = m.encoding ?? 'base58';
  let bytes: Uint8Array;
  if (encoding === 'base58') {
    if (!BASE58_TEXT.test(m.bytes) || m.bytes.length > 175) throw invalidParams('memcmp.bytes is not base58');
    bytes = bs58.decode(m.bytes);
  } else if (encoding === 'base64') {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(m.bytes)) throw invalidParams('memcmp.bytes is not base64');
    bytes = new Uint8Array(Buffer.from(m.bytes, 'base64'));
  } else {
    throw invalidParams('memcmp.encoding must be base58 or base64');
  }
  if (bytes.length > MAX_MEMCMP_BYTES) throw invalidParams(`memcmp.bytes longer than ${MAX_MEMCMP_BYTES} bytes`);
  return { offset, bytes };
}

export function matchesCompiled(data: Uint8Array, filters: readonly CompiledFilter[]): boolean {
  for (const f of filters) {
    if (f.dataSize !== undefined && data.length !== f.dataSize) return false;
    if (f.memcmp) {
      const { offset, bytes } = f.memcmp;
      if (offset + bytes.length > data.length) return false;
      for (let i = 0; i < bytes.length; i++) if (data[offset + i] !== bytes[i]) return false;
    }
  }
  return true;
}
