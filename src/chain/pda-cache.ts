/**
 * Program-derived addresses never change for given seeds, but deriving one runs up to 255 SHA-256
 * rounds plus an off-curve check (findProgramAddressSync was 55 % of the buy route's CPU). Derive
 * once and remember, in a bounded map (oldest entries leave first).
 */
import { PublicKey } from '@solana/web3.js';

const MAX_ENTRIES = 50_000;
const cache = new Map<string, [PublicKey, number]>();

export function findProgramAddressCached(seeds: Array<Buffer | Uint8Array>, programId: PublicKey): [PublicKey, number] {
  const key = `${programId.toBase58()}:${seeds.map((s) => Buffer.from(s).toString('hex')).join(':')}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const found = PublicKey.findProgramAddressSync(seeds, programId);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, found);
  return found;
}
