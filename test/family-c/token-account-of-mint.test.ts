/**
 * The Family C index's per-notification check (index-subscriptions.ts `watchMint`) reads bytes
 * instead of decoding the account: it must accept exactly what `decodeTokenAccountSnapshot`
 * accepts with that mint, for accounts of the mint, of another mint, of the wrong size or owner,
 * and uninitialised, frozen or initialised.
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import type { AccountSnapshot } from '../../src/chain/chain-client.js';
import { decodeTokenAccountSnapshot, isTokenAccountOfMint } from '../../src/services/token-account-index.js';

const mint = Keypair.generate().publicKey;
const other = Keypair.generate().publicKey;

function account(opts: { mint: PublicKey; state: number; size?: number; owner?: string }): AccountSnapshot {
  const data = Buffer.alloc(opts.size ?? 165);
  opts.mint.toBuffer().copy(data, 0);
  Keypair.generate().publicKey.toBuffer().copy(data, 32);
  data.writeBigUInt64LE(123n, 64);
  if (data.length > 108) data[108] = opts.state;
  return {
    address: Keypair.generate().publicKey.toBase58(),
    owner: opts.owner ?? TOKEN_PROGRAM_ID.toBase58(),
    lamports: 1n,
    data,
    executable: false,
    slot: 1,
  };
}

describe('isTokenAccountOfMint', () => {
  const cases = [
    ...[0, 1, 2, 3].flatMap((state) => [account({ mint, state }), account({ mint: other, state })]),
    account({ mint, state: 1, size: 166 }),
    account({ mint, state: 1, size: 82 }),
    account({ mint, state: 1, owner: PublicKey.default.toBase58() }),
  ];
  it.each(cases.map((c, i) => [i, c] as const))('case %i agrees with the decoder', (_i, snapshot) => {
    const row = decodeTokenAccountSnapshot(snapshot);
    expect(isTokenAccountOfMint(snapshot, mint.toBuffer())).toBe(row !== null && row.mint === mint.toBase58());
  });
  it('accepts an initialised and a frozen account of the mint', () => {
    expect(isTokenAccountOfMint(account({ mint, state: 1 }), mint.toBuffer())).toBe(true);
    expect(isTokenAccountOfMint(account({ mint, state: 2 }), mint.toBuffer())).toBe(true);
  });
});
