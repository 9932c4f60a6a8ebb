/**
 * Program-derived addresses as the routes need them (market, mints, vault of one market, asked
 * again and again): the cached derivation against web3.js's findProgramAddressSync in the same run.
 */
import { Keypair, PublicKey } from '@solana/web3.js';
import { findMarketPda, findNoMintPda, findVaultAddress, findYesMintPda, MARKET_PROGRAM_ID, marketIdSeed } from '@pmx/programs';

const N = 20_000;
const usdc = Keypair.generate().publicKey;

function perSecond(body: (i: number) => void): number {
  const started = performance.now();
  for (let i = 0; i < N; i++) body(i);
  return N / ((performance.now() - started) / 1000);
}

export async function run(): Promise<void> {
  const ids = Array.from({ length: 50 }, (_, i) => BigInt(i + 1)); // 50 markets, asked round-robin
  const bare = perSecond((i) => {
    const id = marketIdSeed(ids[i % ids.length]!);
    PublicKey.findProgramAddressSync([Buffer.from('market'), id], MARKET_PROGRAM_ID);
    PublicKey.findProgramAddressSync([Buffer.from('yes_mint'), id], MARKET_PROGRAM_ID);
    PublicKey.findProgramAddressSync([Buffer.from('no_mint'), id], MARKET_PROGRAM_ID);
  });
  const cached = perSecond((i) => {
    const id = ids[i % ids.length]!;
    findMarketPda(id);
    findYesMintPda(id);
    findNoMintPda(id);
  });
  findVaultAddress(1n, usdc);
  console.log(`  market + YES + NO PDAs: uncached ${Math.round(bare)}/s, cached ${Math.round(cached)}/s → ${(cached / bare).toFixed(1)}×`);
}
