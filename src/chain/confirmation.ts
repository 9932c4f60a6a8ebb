/**
 * The one wait for a signature's fate: `ok` once confirmed (or finalized), `err` when it landed
 * and failed, `expired` when the cluster is past the blockhash's last valid height without it
 * (it can never land), `timeout` otherwise.
 */
import { pollUntil } from '../infra/poll.js';
import type { ChainClient } from './chain-client.js';

export type SignatureFate = 'ok' | 'err' | 'expired' | 'timeout';

export async function awaitSignature(
  chain: ChainClient,
  signature: string,
  opts: { timeoutMs: number; pollMs?: number; lastValidBlockHeight?: number },
): Promise<SignatureFate> {
  const fate = await pollUntil<SignatureFate>(
    async () => {
      const [status] = await chain.getSignatureStatuses([signature]);
      if (status?.err !== null && status?.err !== undefined) return 'err';
      if (status && status.confirmationStatus !== 'processed') return 'ok';
      if (opts.lastValidBlockHeight !== undefined && (await chain.getBlockHeight()) > opts.lastValidBlockHeight) return 'expired';
      return undefined;
    },
    { timeoutMs: opts.timeoutMs, initialMs: opts.pollMs ?? 20, maxMs: opts.pollMs ?? 200 },
  );
  return fate ?? 'timeout';
}
