/**
 * The embedded ledger refuses in a node's own terms (`LedgerError`); the daemon's jobs decide on
 * `ChainError` codes. This maps one to the other exactly as the rpc adapter maps a node's answer,
 * so the same failure gets the same retry decision through either adapter.
 */
import { LedgerError } from '@pmx/local-cluster';
import { ChainError } from '../chain-errors.js';
import { codeForTransactionErr } from '../tx-error-codes.js';

export function chainErrorOf(e: unknown): unknown {
  if (!(e instanceof LedgerError)) return e;
  switch (e.kind) {
    case 'preflight':
      return new ChainError(codeForTransactionErr(e.err), e.message, { err: e.err, logs: e.logs });
    case 'signature':
      return new ChainError('SIGNATURE_VERIFICATION_FAILED', e.message);
    case 'unavailable':
      return new ChainError('NODE_UNAVAILABLE', e.message);
    case 'invalid':
      return new ChainError('INVALID_TRANSACTION', e.message);
  }
}

/** Runs a ledger call, rethrowing its refusal as the daemon's ChainError. */
export async function viaLedger<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (e) {
    throw chainErrorOf(e);
  }
}
