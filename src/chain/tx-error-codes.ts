/**
 * Maps a transaction error (the JSON shape a cluster reports) to a ChainError code, so that both
 * adapters give jobs the same retry decision for the same failure.
 */
import type { ChainErrorCode } from './chain-errors.js';

export function codeForTransactionErr(err: unknown): ChainErrorCode {
  if (err === 'BlockhashNotFound') return 'BLOCKHASH_NOT_FOUND';
  if (err === 'AlreadyProcessed') return 'ALREADY_PROCESSED';
  if (err === 'SignatureFailure') return 'SIGNATURE_VERIFICATION_FAILED';
  if (err === 'InsufficientFundsForFee' || (typeof err === 'object' && err !== null && 'InsufficientFundsForRent' in err))
    return 'INSUFFICIENT_FUNDS';
  if (err === 'AccountNotFound' || err === 'ProgramAccountNotFound') return 'ACCOUNT_NOT_FOUND';
  if (typeof err === 'object' && err !== null && 'InstructionError' in err) return 'PROGRAM_ERROR';
  return 'INVALID_TRANSACTION';
}
