/**
 * The shared token-account decoder against @solana/spl-token's own encoder: the same fields for
 * a 165-byte account, and null for what is not an initialised token account.
 */
import { AccountLayout, AccountState } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { decodeTokenAccount, TOKEN_ACCOUNT_SIZE, tokenAccountBalance } from '../src/index.js';

const mint = Keypair.generate().publicKey;
const owner = Keypair.generate().publicKey;
const delegate = Keypair.generate().publicKey;

function encoded(state: AccountState): Buffer {
  const data = Buffer.alloc(AccountLayout.span);
  AccountLayout.encode(
    {
      mint,
      owner,
      amount: 123_456_789n,
      delegateOption: 1,
      delegate,
      state,
      isNativeOption: 0,
      isNative: 0n,
      delegatedAmount: 7n,
      closeAuthorityOption: 0,
      closeAuthority: PublicKey.default,
    },
    data,
  );
  return data;
}

describe('decodeTokenAccount', () => {
  it('reads what spl-token wrote, at the size spl-token declares', () => {
    expect(TOKEN_ACCOUNT_SIZE).toBe(AccountLayout.span);
    expect(decodeTokenAccount(encoded(AccountState.Frozen))).toEqual({
      mint: mint.toBase58(),
      owner: owner.toBase58(),
      amount: 123_456_789n,
      delegate: delegate.toBase58(),
      state: 'frozen',
      isNative: false,
      delegatedAmount: 7n,
      closeAuthority: null,
    });
  });

  it('refuses a short, an uninitialised, or a longer account that Token-2022 does not mark as an account', () => {
    const data = encoded(AccountState.Initialized);
    expect(decodeTokenAccount(data.subarray(0, TOKEN_ACCOUNT_SIZE - 1))).toBeNull();
    expect(decodeTokenAccount(encoded(AccountState.Uninitialized))).toBeNull();
    expect(decodeTokenAccount(Buffer.concat([data, Buffer.from([1, 0, 0])]))).toBeNull(); // a mint with extensions
    expect(decodeTokenAccount(Buffer.concat([data, Buffer.from([2, 0, 0])]))?.amount).toBe(123_456_789n);
  });
});

describe('tokenAccountBalance', () => {
  it('answers null exactly when decodeTokenAccount does, else its mint, owner and amount as bytes', () => {
    const data = encoded(AccountState.Initialized);
    for (const bytes of [
      data,
      encoded(AccountState.Frozen),
      encoded(AccountState.Uninitialized),
      data.subarray(0, TOKEN_ACCOUNT_SIZE - 1),
      Buffer.concat([data, Buffer.from([1, 0, 0])]),
      Buffer.concat([data, Buffer.from([2, 0, 0])]),
    ]) {
      const full = decodeTokenAccount(bytes);
      const view = tokenAccountBalance(bytes);
      expect(view === null).toBe(full === null);
      if (full && view) {
        expect([new PublicKey(view.mint).toBase58(), new PublicKey(view.owner).toBase58(), view.amount]).toEqual([
          full.mint,
          full.owner,
          full.amount,
        ]);
      }
    }
  });
});
