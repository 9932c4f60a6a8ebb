/**
 * Solana JSON-RPC encodings of accounts: base64/base58 data tuples and jsonParsed for SPL mints
 * and token accounts (the shapes @solana/web3.js's getParsedAccountInfo and spl-token expect).
 */
import bs58 from 'bs58';
import type { StoredAccount } from './svm-accounts.js';
import { decodeMint, TOKEN_2022_PROGRAM, tokenAccountOf, uiTokenAmount } from './token-balances.js';

/** Rent-exempt accounts report rentEpoch u64::MAX on current clusters. */
export const RENT_EPOCH_MAX = 2 ** 64 - 1; // serializes as 18446744073709552000, as real nodes appear to JS clients

export type AccountEncoding = 'base64' | 'base58' | 'jsonParsed' | 'base64+zstd';

export interface EncodedRpcAccount {
  data: unknown;
  executable: boolean;
  lamports: number;
  owner: string;
  rentEpoch: number;
  space: number;
}

export function parsedAccountData(acc: StoredAccount, decimalsOf: (mint: string) => number): unknown | null {
  const program = acc.owner === TOKEN_2022_PROGRAM ? 'spl-token-2022' : 'spl-token';
  const token = tokenAccountOf(acc);
  if (token) {
    const decimals = decimalsOf(token.mint);
    const info: Record<string, unknown> = {
      isNative: token.isNative,
      mint: token.mint,
      owner: token.owner,
      state: token.state,
      tokenAmount: uiTokenAmount(token.amount, decimals),
    };
    if (token.delegate) {
      info.delegate = token.delegate;
      info.delegatedAmount = uiTokenAmount(token.delegatedAmount, decimals);
    }
    if (token.closeAuthority) info.closeAuthority = token.closeAuthority;
    return { program, parsed: { type: 'account', info }, space: acc.data.length };
  }
  const mint = decodeMint(acc);
  if (mint) {
    return {
      program,
      parsed: {
        type: 'mint',
        info: {
          decimals: mint.decimals,
          freezeAuthority: mint.freezeAuthority,
          isInitialized: true,
          mintAuthority: mint.mintAuthority,
          supply: mint.supply.toString(),
        },
      },
      space: acc.data.length,
    };
  }
  if (acc.owner === '11111111111111111111111111111111' && acc.data.length === 0) {
    // Real nodes answer jsonParsed for plain wallets with base64 data (nothing to parse).
    return null;
  }
  return null;
}

export function encodeAccount(
  acc: StoredAccount,
  encoding: AccountEncoding | undefined,
  decimalsOf: (mint: string) => number,
  dataSlice?: { offset: number; length: number },
): EncodedRpcAccount {
  let bytes = Buffer.from(acc.data.buffer, acc.data.byteOffset, acc.data.byteLength);
  if (dataSlice) bytes = bytes.subarray(dataSlice.offset, dataSlice.offset + dataSlice.length);
  let data: unknown;
  if (encoding === 'jsonParsed') data = parsedAccountData(acc, decimalsOf) ?? [bytes.toString('base64'), 'base64'];
  else if (encoding === 'base58') data = [bs58.encode(bytes), 'base58'];
  else data = [bytes.toString('base64'), 'base64'];
  return {
    data,
    executable: acc.executable,
    lamports: Number(acc.lamports),
    owner: acc.owner,
    rentEpoch: RENT_EPOCH_MAX,
    space: acc.data.length,
  };
}
