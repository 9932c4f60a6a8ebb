import { SolanaJSONRPCError } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { classifyError, withRetry } from '../../src/chain/adapters/rpc-retry.js';

describe('rpc error classification', () => {
  it('maps a JSON-RPC "Invalid params" answer to INVALID_PARAMS (the caller\'s input: answered 400, not retried)', async () => {
    const refused = new SolanaJSONRPCError({ code: -32602, message: 'Invalid param: WrongSize' }, 'failed to get signature status');
    expect(classifyError(refused)).toMatchObject({ code: 'INVALID_PARAMS', retryable: false });
    let calls = 0;
    await expect(
      withRetry(
        async () => {
          calls++;
          throw refused;
        },
        { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
      ),
    ).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
    expect(calls).toBe(1);
  });

  it('keeps transport failures retryable', () => {
    expect(classifyError(new Error('503 Service Unavailable'))).toMatchObject({ code: 'NODE_UNAVAILABLE', retryable: true });
  });
});
