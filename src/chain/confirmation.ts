/**
 * The one wait for a signature's fate: `ok` once confirmed (or finalized), `err` when it landed
 * and failed, `expired` when the cluster is past the blockhash's last valid height without it
 * (it can never land), `timeout` otherwise.
 */
import { pollUntil } from '../infra/poll.js';
import type { ChainClient, SignatureStatus } from './chain-client.js';

export type SignatureFate = 'ok' | 'err' | 'expired' | 'timeout';

/** What one status read says: `ok` confirmed or finalized, `err` landed and failed, `none` not (yet) confirmed. */
export function statusFate(status: SignatureStatus | null | undefined): 'ok' | 'err' | 'none' {
  if (!status) return 'none';
  if (status.err !== null && status.err !== undefined) return 'err';
  return status.confirmationStatus === 'processed' ? 'none' : 'ok';
}

export async function awaitSignature(
  chain: ChainClient,
  signature: string,
  opts: { timeoutMs: number; pollMs?: number; lastValidBlockHeight?: number; signal?: AbortSignal },
): Promise<SignatureFate> {
  const fate = await pollUntil<SignatureFate>(
    async () => {
      const [status] = await chain.getSignatureStatuses([signature]);
      const now = statusFate(status);
      if (now !== 'none') return now;
      if (opts.lastValidBlockHeight !== undefined && (await chain.getBlockHeight()) > opts.lastValidBlockHeight) return 'expired';
      return undefined;
    },
    { timeoutMs: opts.timeoutMs, initialMs: opts.pollMs ?? 20, maxMs: opts.pollMs ?? 200, signal: opts.signal },
  );
  return fate ?? 'timeout';
}
