/**
 * SPL token accounts and mints for meta.preTokenBalances / postTokenBalances and jsonParsed output.
 * Token accounts go through @pmx/programs' decodeTokenAccount (allocation-light, for the ledger's
 * hot path); mints are read here from the fixed layout the same way.
 */
import { decodeTokenAccount, TOKEN_ACCOUNT_SIZE, type DecodedTokenAccount } from '@pmx/programs';
import bs58 from 'bs58';
import type { StoredAccount } from './svm-accounts.js';
import { addressText } from './svm-raw.js';

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb';
export const MINT_SIZE = 82;
/** Byte TOKEN_ACCOUNT_SIZE of a longer (Token-2022) account: 2 = an account, 1 = a mint. */
const ACCOUNT_TYPE_ACCOUNT = 2;

export interface TokenBalance {
  accountIndex: number;
  mint: string;
  owner: string;
  programId: string;
  amount: bigint;
  decimals: number;
}

export interface DecodedMint {
  mintAuthority: string | null;
  supply: bigint;
  decimals: number;
  isInitialized: boolean;
  freezeAuthority: string | null;
}

export function isTokenProgram(owner: string): boolean {
  return owner === TOKEN_PROGRAM || owner === TOKEN_2022_PROGRAM;
}

function optionKey(data: Buffer, offset: number): string | null {
  return data.readUInt32LE(offset) === 1 ? bs58.encode(data.subarray(offset + 4, offset + 36)) : null;
}

/** A stored account as a token account: owned by a token program, then the shared decoder's checks. */
export function tokenAccountOf(acc: StoredAccount | null): DecodedTokenAccount | null {
  return acc && isTokenProgram(acc.owner) ? decodeTokenAccount(acc.data) : null;
}

/** An initialized mint's decimals (decodeMint's checks, without encoding its two authorities). */
export function mintDecimals(acc: StoredAccount | null): number | null {
  // Token-2022 mints with extensions are longer; the base layout is the same.
  if (!acc || !isTokenProgram(acc.owner) || acc.data.length < MINT_SIZE || acc.data.length === TOKEN_ACCOUNT_SIZE) return null;
  return acc.data[45] === 1 ? (acc.data[44] ?? 0) : null;
}

export function decodeMint(acc: StoredAccount | null): DecodedMint | null {
  if (mintDecimals(acc) === null) return null;
  const d = Buffer.from(acc!.data.buffer, acc!.data.byteOffset, acc!.data.byteLength);
  return {
    mintAuthority: optionKey(d, 0),
    supply: d.readBigUInt64LE(36),
    decimals: d[44] ?? 0,
    isInitialized: true,
    freezeAuthority: optionKey(d, 46),
  };
}

/** Formats a raw amount as the cluster's uiTokenAmount object. */
export function uiTokenAmount(
  amount: bigint,
  decimals: number,
): {
  amount: string;
  decimals: number;
  uiAmount: number | null;
  uiAmountString: string;
} {
  const s = amount.toString().padStart(decimals + 1, '0');
  const whole = s.slice(0, s.length - decimals);
  const frac = decimals > 0 ? s.slice(s.length - decimals).replace(/0+$/, '') : '';
  const uiAmountString = frac ? `${whole}.${frac}` : whole;
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString };
}

type BalanceFields = { mint: string; owner: string; amount: bigint } | null;

/**
 * Per state object: the record reads the kept states (touched-accounts.ts), shared and never
 * changed in place, and a transaction's post state is the next one's pre state, so each token
 * account's fields are decoded once rather than twice or four times.
 */
const decoded = new WeakMap<StoredAccount, BalanceFields>();

function balanceFields(acc: StoredAccount | null): BalanceFields {
  if (!acc) return null;
  let out = decoded.get(acc);
  if (out === undefined) decoded.set(acc, (out = decodeBalanceFields(acc)));
  return out;
}

/**
 * What a balance needs of a token account (mint, owner, amount), under decodeTokenAccount's
 * checks, with the two keys through the runtime's base58 cache: a record reads every token
 * account twice (pre and post), and encoding four keys each time was a tenth of landing a transfer.
 */
function decodeBalanceFields(acc: StoredAccount): BalanceFields {
  if (!isTokenProgram(acc.owner)) return null;
  const d = acc.data;
  if (d.length < TOKEN_ACCOUNT_SIZE || (d.length > TOKEN_ACCOUNT_SIZE && d[TOKEN_ACCOUNT_SIZE] !== ACCOUNT_TYPE_ACCOUNT)) return null;
  if (d[108] !== 1 && d[108] !== 2) return null;
  const view = Buffer.from(d.buffer, d.byteOffset, d.byteLength);
  return { mint: addressText(d.subarray(0, 32)), owner: addressText(d.subarray(32, 64)), amount: view.readBigUInt64LE(64) };
}

/** Token balances of the transaction's token accounts, given a reader of kept (never changed) states. */
export function collectTokenBalances(accountKeys: string[], read: (address: string) => StoredAccount | null): TokenBalance[] {
  const out: TokenBalance[] = [];
  const decimals = new Map<string, number>();
  accountKeys.forEach((key, accountIndex) => {
    const acc = read(key);
    const tok = balanceFields(acc);
    if (!tok || !acc) return;
    let dec = decimals.get(tok.mint);
    if (dec === undefined) {
      dec = mintDecimals(read(tok.mint)) ?? 0;
      decimals.set(tok.mint, dec);
    }
    out.push({ accountIndex, mint: tok.mint, owner: tok.owner, programId: acc.owner, amount: tok.amount, decimals: dec });
  });
  return out;
}
