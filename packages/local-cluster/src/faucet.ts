/**
 * The dev faucet behind `/v2/dev/faucet` (embedded cluster only): SOL and/or local USDC to any
 * wallet, within bounds. Bad requests throw FaucetError, which the API maps to a 400.
 */
import { PublicKey } from '@solana/web3.js';
import type { EmbeddedLedger } from './ledger.js';

export const FAUCET_MAX_USDC_RAW = 1_000_000n * 1_000_000n; // 1,000,000 USDC
export const FAUCET_MAX_LAMPORTS = 100n * 1_000_000_000n; // 100 SOL

export class FaucetError extends Error {
  override readonly name = 'FaucetError';
  constructor(
    readonly code: 'INVALID_ADDRESS' | 'INVALID_AMOUNT' | 'AMOUNT_TOO_LARGE',
    message: string,
  ) {
    super(message);
  }
}

export interface FaucetRequest {
  wallet: string;
  /** Raw USDC units (6 decimals). */
  usdcRaw?: bigint;
  lamports?: bigint;
}

export interface FaucetResult {
  wallet: string;
  usdcRaw: bigint;
  lamports: bigint;
  /** Signatures of the recorded transactions (SOL first when both were requested). */
  signatures: string[];
}

function checkAmount(name: string, v: bigint | undefined, max: bigint): bigint {
  if (v === undefined) return 0n;
  if (typeof v !== 'bigint' || v < 0n) throw new FaucetError('INVALID_AMOUNT', `${name} must be a non-negative integer amount`);
  if (v > max) throw new FaucetError('AMOUNT_TOO_LARGE', `${name} exceeds the faucet limit of ${max} per call`);
  return v;
}

export async function faucet(ledger: EmbeddedLedger, req: FaucetRequest): Promise<FaucetResult> {
  let owner: PublicKey;
  try {
    owner = new PublicKey(req.wallet);
  } catch {
    throw new FaucetError('INVALID_ADDRESS', 'wallet must be a base58 Solana address');
  }
  const usdcRaw = checkAmount('usdcRaw', req.usdcRaw, FAUCET_MAX_USDC_RAW);
  const lamports = checkAmount('lamports', req.lamports, FAUCET_MAX_LAMPORTS);
  if (usdcRaw === 0n && lamports === 0n) throw new FaucetError('INVALID_AMOUNT', 'request SOL, USDC or both');
  const signatures: string[] = [];
  if (lamports > 0n) {
    const minimum = ledger.getBalance(owner) === 0n ? ledger.minimumBalanceForRentExemption(0) : 0n;
    if (lamports < minimum)
      throw new FaucetError('INVALID_AMOUNT', `a new wallet needs at least ${minimum} lamports (rent-exempt minimum)`);
    signatures.push(await ledger.airdrop(owner, lamports));
  }
  if (usdcRaw > 0n) signatures.push(await ledger.mintUsdc(owner, usdcRaw));
  return { wallet: owner.toBase58(), usdcRaw, lamports, signatures };
}
