// The embedded adapter's mapping of the cluster's refusals to the daemon's ChainError codes: the
// same retry decision as the rpc adapter gives for the node's answer (chain-adapters.test.ts runs
// both adapters against real refusals; this covers every kind, and a closed ledger for real).
import pino from 'pino';
import { EmbeddedLedger, LedgerError } from '@pmx/local-cluster';
import { describe, expect, it } from 'vitest';
import { chainErrorOf } from '../../src/chain/adapters/ledger-errors.js';
import { EmbeddedChainClient } from '../../src/chain/adapters/embedded.adapter.js';
import { ChainError } from '../../src/chain/chain-errors.js';

describe('chainErrorOf', () => {
  it.each([
    [new LedgerError('preflight', 'x', 'BlockhashNotFound'), 'BLOCKHASH_NOT_FOUND', true],
    [new LedgerError('preflight', 'x', 'AlreadyProcessed'), 'ALREADY_PROCESSED', false],
    [new LedgerError('preflight', 'x', { InstructionError: [0, { Custom: 6 }] }, ['log']), 'PROGRAM_ERROR', false],
    [new LedgerError('signature', 'x'), 'SIGNATURE_VERIFICATION_FAILED', false],
    [new LedgerError('unavailable', 'x'), 'NODE_UNAVAILABLE', true],
    [new LedgerError('invalid', 'x'), 'INVALID_TRANSACTION', false],
  ] as const)('%o → %s (retryable %s)', (refusal, code, retryable) => {
    const mapped = chainErrorOf(refusal);
    expect(mapped).toBeInstanceOf(ChainError);
    expect(mapped).toMatchObject({ code, retryable, message: 'x' });
    if (refusal.kind === 'preflight') expect((mapped as ChainError).detail).toEqual({ err: refusal.err, logs: refusal.logs });
  });

  it('passes any other error through unchanged', () => {
    const other = new TypeError('boom');
    expect(chainErrorOf(other)).toBe(other);
  });

  it('a closed ledger refuses a send as NODE_UNAVAILABLE (retryable)', async () => {
    const ledger = await EmbeddedLedger.open({ logger: pino({ level: 'silent' }) });
    const client = new EmbeddedChainClient(ledger);
    await ledger.close();
    await expect(client.sendRawTransaction(new Uint8Array(200))).rejects.toMatchObject({ code: 'NODE_UNAVAILABLE', retryable: true });
  });
});
