/**
 * The daemon's embedded cluster runs the exchange program beside the market program, under the
 * configured id (EXCHANGE_PROGRAM_ID), so the platform's operator can initialise it over the
 * same ledger the API uses.
 */
import { Keypair, PublicKey } from '@solana/web3.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../config/config.js';
import { decodeExchangeConfig, findExchangeConfigPda, getExchangeInitializeInstruction } from '@pmx/programs';
import { openChainRuntime } from '../../../src/features/open-chain-runtime.js';

describe('chain runtime registers the exchange program', () => {
  it('executes exchange instructions under the configured program id', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'pmx-exchange-rt-'));
    const programId = Keypair.generate().publicKey;
    const config = loadConfig({ DATA_DIR: dataDir, LEDGER_RPC_PORT: '0', EXCHANGE_PROGRAM_ID: programId.toBase58() });
    const { runtime, close } = await openChainRuntime(config, pino({ level: 'silent' }));
    try {
      expect(runtime.programs.exchange?.equals(programId)).toBe(true);
      const ledger = runtime.ledger!;
      const operator = runtime.wallets.exchangeOperator;
      await ledger.airdrop(operator.publicKey, 1_000_000_000n);
      await ledger.sendInstructions(
        [
          getExchangeInitializeInstruction({
            operator: operator.publicKey,
            usdcMint: runtime.usdcMint,
            feeWallet: runtime.wallets.protocolFee.publicKey,
            takerFeeBps: 25,
            makerRebateBps: 5,
            programId,
          }),
        ],
        [operator],
      );
      const account = ledger.getAccount(findExchangeConfigPda(programId)[0])!;
      expect(account.owner.equals(programId)).toBe(true);
      const decoded = decodeExchangeConfig(account.data);
      expect(decoded.operator.equals(operator.publicKey)).toBe(true);
      expect(decoded.usdcMint.equals(new PublicKey(runtime.usdcMint))).toBe(true);
      expect([decoded.takerFeeBps, decoded.makerRebateBps]).toEqual([25, 5]);
    } finally {
      await close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
