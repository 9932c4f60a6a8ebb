/**
 * The dev faucet of the embedded cluster (POST /v2/dev/faucet): real USDC minted to the wallet's
 * associated token account and a real SOL airdrop, bounded per call; the cluster's refusals
 * become 400s. Only the embedded cluster has one (a real cluster's faucet is not ours to run).
 */
import { faucet, FAUCET_MAX_LAMPORTS, FAUCET_MAX_USDC_RAW, FaucetError, type EmbeddedLedger } from '@pmx/local-cluster';
import { DomainError } from '../domain/errors.js';

export interface DevFaucet {
  readonly maxUsdcRaw: bigint;
  readonly maxLamports: bigint;
  fund(req: { wallet: string; usdcRaw?: bigint; lamports?: bigint }): Promise<{ usdcSignature?: string; solSignature?: string }>;
}

export function embeddedDevFaucet(ledger: EmbeddedLedger): DevFaucet {
  return {
    maxUsdcRaw: FAUCET_MAX_USDC_RAW,
    maxLamports: FAUCET_MAX_LAMPORTS,
    async fund(req) {
      try {
        const [first, second] = (await faucet(ledger, req)).signatures;
        return {
          ...(req.lamports ? { solSignature: first } : {}),
          ...(req.usdcRaw ? { usdcSignature: req.lamports ? second : first } : {}),
        };
      } catch (error) {
        if (error instanceof FaucetError) throw new DomainError('invalid', error.code, error.message);
        throw error;
      }
    },
  };
}
