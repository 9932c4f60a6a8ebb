/**
 * First-start setup of the embedded cluster, kept across restarts: the ledger's keys (under
 * DATA_DIR/keys/, mode 0600; in memory when there is no data dir), a local USDC mint (6 decimals,
 * mint authority held by the ledger) and the platform wallets, funded with SOL and given USDC
 * associated token accounts. Every step is a real recorded transaction.
 */
import { Keypair, SystemProgram, type PublicKey, type TransactionInstruction } from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createInitializeMint2Instruction,
  getAssociatedTokenAddressSync,
  MINT_SIZE,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { join } from 'node:path';
import { loadOrCreateKeypair, type PlatformKeyName, platformKeyFile } from '@pmx/programs';

export const USDC_DECIMALS = 6;
export const PLATFORM_WALLET_SOL = 100n * 1_000_000_000n;

export type LedgerKeys = Record<PlatformKeyName, Keypair>;

export interface BootstrapInfo {
  usdcMint: string;
  usdcDecimals: number;
  wallets: { treasury: string; exchangeOperator: string; protocolFee: string };
}

/** Keys in `keysDir`, else `dataDir/keys/`; in memory only when neither is given. */
export function loadLedgerKeys(where: { keysDir?: string; dataDir?: string }): LedgerKeys {
  const keysDir = where.keysDir ?? (where.dataDir === undefined ? undefined : join(where.dataDir, 'keys'));
  const names: PlatformKeyName[] = ['usdcMint', 'usdcMintAuthority', 'treasury', 'exchangeOperator', 'protocolFee', 'ledgerFaucet'];
  return Object.fromEntries(
    names.map((n) => [n, keysDir ? loadOrCreateKeypair(platformKeyFile(keysDir, n)) : Keypair.generate()]),
  ) as LedgerKeys;
}

export function bootstrapInfo(keys: LedgerKeys): BootstrapInfo {
  return {
    usdcMint: keys.usdcMint.publicKey.toBase58(),
    usdcDecimals: USDC_DECIMALS,
    wallets: {
      treasury: keys.treasury.publicKey.toBase58(),
      exchangeOperator: keys.exchangeOperator.publicKey.toBase58(),
      protocolFee: keys.protocolFee.publicKey.toBase58(),
    },
  };
}

/** The bootstrap transactions, in order: each is [instructions, extra signers besides the faucet]. */
export function bootstrapTransactions(keys: LedgerKeys, mintRent: bigint): [TransactionInstruction[], Keypair[]][] {
  const payer = keys.ledgerFaucet.publicKey;
  const mint = keys.usdcMint.publicKey;
  const wallets: PublicKey[] = [keys.treasury.publicKey, keys.exchangeOperator.publicKey, keys.protocolFee.publicKey];
  return [
    [
      [
        SystemProgram.createAccount({
          fromPubkey: payer,
          newAccountPubkey: mint,
          lamports: Number(mintRent),
          space: MINT_SIZE,
          programId: TOKEN_PROGRAM_ID,
        }),
        createInitializeMint2Instruction(mint, USDC_DECIMALS, keys.usdcMintAuthority.publicKey, null),
      ],
      [keys.usdcMint],
    ],
    [
      wallets.flatMap((w) => [
        SystemProgram.transfer({ fromPubkey: payer, toPubkey: w, lamports: PLATFORM_WALLET_SOL }),
        createAssociatedTokenAccountIdempotentInstruction(payer, getAssociatedTokenAddressSync(mint, w, true), w, mint),
      ]),
      [],
    ],
  ];
}
