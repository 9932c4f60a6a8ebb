/**
 * The dev faucet of the embedded cluster (POST /v2/dev/faucet): real USDC minted to the wallet's
 * associated token account and a real SOL airdrop, bounded per call; bad requests become 400s.
 */
import type { EmbeddedLedger } from '../chain/embedded/ledger.js';
import { faucet, FaucetError } from '../chain/embedded/faucet.js';
import { DomainError } from '../domain/errors.js';

export { FAUCET_MAX_LAMPORTS, FAUCET_MAX_USDC_RAW } from '../chain/embedded/faucet.js';

export async function runFaucet(ledger: EmbeddedLedger, req: { wallet: string; usdcRaw?: bigint; lamports?: bigint }): Promise<{ usdcSignature?: string; solSignature?: string }> {
  try {
    const result = await faucet(ledger, req);
    const [first, second] = result.signatures;
    return {
      ...(req.lamports ? { solSignature: first } : {}),
      ...(req.usdcRaw ? { usdcSignature: req.lamports ? second : first } : {}),
    };
  } catch (error) {
    if (error instanceof FaucetError) throw new DomainError('invalid', error.code, error.message);
    throw error;
  }
}
