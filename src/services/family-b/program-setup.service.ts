/**
 * The market program's config account (admin = treasury) must exist before any market: create it
 * once, at start. Two processes racing both try; the loser finds it created and carries on.
 */
import type { Keypair, PublicKey } from '@solana/web3.js';
import { getInitializeInstruction } from '@pmx/programs';
import { sendAndConfirmPlatformTransaction } from '../platform-transaction.js';
import type { FamilyBContext } from './context.js';
import { readProgramConfig } from './market-reader.js';

export async function ensureProgramInitialized(
  b: FamilyBContext,
  wallets: { treasury: Keypair; protocolFee: Keypair },
  usdcMint: PublicKey,
): Promise<void> {
  if (await readProgramConfig(b)) return;
  const instruction = getInitializeInstruction({
    admin: wallets.treasury.publicKey,
    usdcMint,
    protocolFeeWallet: wallets.protocolFee.publicKey,
    programId: b.programId,
  });
  try {
    const signature = await sendAndConfirmPlatformTransaction(b.chain, [instruction], [wallets.treasury]);
    b.log.info({ signature, program: b.programId.toBase58() }, 'market program config initialised');
  } catch (error) {
    if (!(await readProgramConfig(b))) throw error; // another process initialised it meanwhile: fine
  }
}
