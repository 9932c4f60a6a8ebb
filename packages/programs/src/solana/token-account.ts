/**
 * The one SPL token-account decoder (Token and Token-2022 base layout). It reads the fixed
 * offsets directly (mint 0..32, owner 32..64, amount 64..72, state at 108) rather than through
 * @solana/spl-token's AccountLayout, because the local cluster decodes every token account a
 * transaction touches for its pre/post token balances and this allocates only the strings.
 * The caller checks the account's owner program; this checks the bytes.
 */
import bs58 from 'bs58';

/** Bytes of an SPL token account (a Token-2022 account with extensions is longer). */
export const TOKEN_ACCOUNT_SIZE = 165;
/** Token-2022's account-type byte after the base layout: 2 marks an account (1 a mint). */
const ACCOUNT_TYPE_ACCOUNT = 2;

export interface DecodedTokenAccount {
  mint: string;
  owner: string;
  amount: bigint;
  delegate: string | null;
  state: 'initialized' | 'frozen';
  isNative: boolean;
  delegatedAmount: bigint;
  closeAuthority: string | null;
}

function optionKey(data: Buffer, offset: number): string | null {
  return data.readUInt32LE(offset) === 1 ? bs58.encode(data.subarray(offset + 4, offset + 36)) : null;
}

/** An initialised token account's mint, owner (views of its bytes) and amount; null exactly when `decodeTokenAccount` is. */
export function tokenAccountBalance(bytes: Uint8Array): { mint: Uint8Array; owner: Uint8Array; amount: bigint } | null {
  if (bytes.length < TOKEN_ACCOUNT_SIZE) return null;
  if (bytes.length > TOKEN_ACCOUNT_SIZE && bytes[TOKEN_ACCOUNT_SIZE] !== ACCOUNT_TYPE_ACCOUNT) return null;
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const state = data[108];
  if (state !== 1 && state !== 2) return null;
  // Without base58: a settle checks the mint and owner of every escrow account it pays from.
  return { mint: data.subarray(0, 32), owner: data.subarray(32, 64), amount: data.readBigUInt64LE(64) };
}

/**
 * An initialised token account's fields, or null: shorter than 165 bytes, longer without
 * Token-2022's account marker (a mint with extensions), or uninitialised (state 0).
 */
export function decodeTokenAccount(bytes: Uint8Array): DecodedTokenAccount | null {
  if (bytes.length < TOKEN_ACCOUNT_SIZE) return null;
  if (bytes.length > TOKEN_ACCOUNT_SIZE && bytes[TOKEN_ACCOUNT_SIZE] !== ACCOUNT_TYPE_ACCOUNT) return null;
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const state = data[108];
  if (state !== 1 && state !== 2) return null;
  return {
    mint: bs58.encode(data.subarray(0, 32)),
    owner: bs58.encode(data.subarray(32, 64)),
    amount: data.readBigUInt64LE(64),
    delegate: optionKey(data, 72),
    state: state === 2 ? 'frozen' : 'initialized',
    isNative: data.readUInt32LE(109) === 1,
    delegatedAmount: data.readBigUInt64LE(121),
    closeAuthority: optionKey(data, 129),
  };
}
