/** Operator instructions: initialize, set_fees, create_market, pause/resume/resolve_market. */
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, TransactionInstruction, type PublicKey } from '@solana/web3.js';
import { findClobMarketPda, findClobOutcomeMintPda, findClobVaultAddress, findExchangeConfigPda, marketUuidSeed } from '../pda.js';
import { EXCHANGE_PROGRAM_ID } from '../program-id.js';
import { EXCHANGE_DATA, type OutcomeByte } from './data.js';

const ro = (pubkey: PublicKey) => ({ pubkey, isSigner: false, isWritable: false });
const w = (pubkey: PublicKey) => ({ pubkey, isSigner: false, isWritable: true });

export function getExchangeInitializeInstruction(p: {
  operator: PublicKey;
  usdcMint: PublicKey;
  feeWallet: PublicKey;
  takerFeeBps: number;
  makerRebateBps: number;
  programId?: PublicKey;
}): TransactionInstruction {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: p.operator, isSigner: true, isWritable: true },
      w(findExchangeConfigPda(programId)[0]),
      ro(p.usdcMint),
      ro(p.feeWallet),
      ro(SystemProgram.programId),
    ],
    data: EXCHANGE_DATA.initialize.encode(p),
  });
}

export function getExchangeSetFeesInstruction(p: {
  operator: PublicKey;
  takerFeeBps: number;
  makerRebateBps: number;
  programId?: PublicKey;
}): TransactionInstruction {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  return new TransactionInstruction({
    programId,
    keys: [{ pubkey: p.operator, isSigner: true, isWritable: true }, w(findExchangeConfigPda(programId)[0])],
    data: EXCHANGE_DATA.setFees.encode(p),
  });
}

export function getClobCreateMarketInstruction(p: {
  operator: PublicKey;
  marketUuid: string;
  usdcMint: PublicKey;
  programId?: PublicKey;
}): TransactionInstruction {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: p.operator, isSigner: true, isWritable: true },
      ro(findExchangeConfigPda(programId)[0]),
      w(findClobMarketPda(p.marketUuid, programId)[0]),
      w(findClobOutcomeMintPda(p.marketUuid, 'yes', programId)[0]),
      w(findClobOutcomeMintPda(p.marketUuid, 'no', programId)[0]),
      ro(p.usdcMint),
      w(findClobVaultAddress(p.marketUuid, p.usdcMint, programId)),
      ro(TOKEN_PROGRAM_ID),
      ro(ASSOCIATED_TOKEN_PROGRAM_ID),
      ro(SystemProgram.programId),
    ],
    data: EXCHANGE_DATA.createMarket.encode({ marketUuid: marketUuidSeed(p.marketUuid) }),
  });
}

export type MarketStatusAction = 'pause' | 'resume' | 'resolve';

/** pause_market / resume_market / resolve_market (outcome required for resolve). */
export function getClobMarketStatusInstruction(p: {
  operator: PublicKey;
  marketUuid: string;
  action: MarketStatusAction;
  outcome?: OutcomeByte;
  programId?: PublicKey;
}): TransactionInstruction {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  let data: Buffer;
  if (p.action === 'resolve') {
    if (p.outcome === undefined) throw new RangeError('resolve needs an outcome');
    data = EXCHANGE_DATA.resolveMarket.encode({ outcome: p.outcome });
  } else data = (p.action === 'pause' ? EXCHANGE_DATA.pauseMarket : EXCHANGE_DATA.resumeMarket).encode({});
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: p.operator, isSigner: true, isWritable: false },
      ro(findExchangeConfigPda(programId)[0]),
      w(findClobMarketPda(p.marketUuid, programId)[0]),
    ],
    data,
  });
}
