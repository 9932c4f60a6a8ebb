// getProgramAccounts filters (dataSize, memcmp with base58 bytes), as Solana JSON-RPC applies them.
import bs58 from 'bs58';
import type { ProgramAccountFilter } from '../chain-client.js';
import type { CompiledFilter } from '@pmx/local-cluster';

/** The port's filters with their memcmp bytes decoded once. */
export function compileFilters(filters: readonly ProgramAccountFilter[]): CompiledFilter[] {
  return filters.map((f) => ({
    ...(f.dataSize !== undefined ? { dataSize: f.dataSize } : {}),
    ...(f.memcmp ? { memcmp: { offset: f.memcmp.offset, bytes: bs58.decode(f.memcmp.bytes) } } : {}),
  }));
}

/** Compiled once per subscription: an account event is checked against bytes, never base58. */
export function matchesFilters(data: Uint8Array, filters: readonly CompiledFilter[]): boolean {
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
