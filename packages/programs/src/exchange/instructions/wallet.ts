/** Owner instructions on the smart wallet: deposit, withdraw, split, merge, redeem. */
import { ASSOCIATED_TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, TransactionInstruction, type PublicKey } from '@solana/web3.js';
import {
  findClobMarketPda,
  findClobOutcomeMintPda,
  findClobVaultAddress,
  findEscrowTokenAddress,
  findExchangeConfigPda,
  findUserEscrowPda,
} from '../pda.js';
import { EXCHANGE_PROGRAM_ID } from '../program-id.js';
import { EXCHANGE_DATA, type OutcomeByte } from './data.js';

const ro = (pubkey: PublicKey) => ({ pubkey, isSigner: false, isWritable: false });
const w = (pubkey: PublicKey) => ({ pubkey, isSigner: false, isWritable: true });

interface WalletParams {
  owner: PublicKey;
  usdcMint: PublicKey;
  amount: bigint;
  programId?: PublicKey;
  ownerUsdc?: PublicKey;
}

export function getDepositInstruction(p: WalletParams): TransactionInstruction {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: p.owner, isSigner: true, isWritable: true },
      ro(findExchangeConfigPda(programId)[0]),
      w(findUserEscrowPda(p.owner, programId)[0]),
      ro(p.usdcMint),
      w(p.ownerUsdc ?? getAssociatedTokenAddressSync(p.usdcMint, p.owner)),
      w(findEscrowTokenAddress(p.owner, p.usdcMint, programId)),
      ro(TOKEN_PROGRAM_ID),
      ro(ASSOCIATED_TOKEN_PROGRAM_ID),
      ro(SystemProgram.programId),
    ],
    data: EXCHANGE_DATA.deposit.encode(p),
  });
}

export function getWithdrawInstruction(p: WalletParams): TransactionInstruction {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  return new TransactionInstruction({
    programId,
    keys: [
      { pubkey: p.owner, isSigner: true, isWritable: false },
      ro(findExchangeConfigPda(programId)[0]),
      ro(findUserEscrowPda(p.owner, programId)[0]),
      w(findEscrowTokenAddress(p.owner, p.usdcMint, programId)),
      w(p.ownerUsdc ?? getAssociatedTokenAddressSync(p.usdcMint, p.owner)),
      ro(TOKEN_PROGRAM_ID),
    ],
    data: EXCHANGE_DATA.withdraw.encode(p),
  });
}

interface MarketOpParams {
  owner: PublicKey;
  usdcMint: PublicKey;
  marketUuid: string;
  amount: bigint;
  programId?: PublicKey;
}

function marketOpKeys(p: MarketOpParams, programId: PublicKey) {
  const yes = findClobOutcomeMintPda(p.marketUuid, 'yes', programId)[0];
  const no = findClobOutcomeMintPda(p.marketUuid, 'no', programId)[0];
  return [
    { pubkey: p.owner, isSigner: true, isWritable: true },
    ro(findUserEscrowPda(p.owner, programId)[0]),
    w(findClobMarketPda(p.marketUuid, programId)[0]),
    w(findClobVaultAddress(p.marketUuid, p.usdcMint, programId)),
    w(findEscrowTokenAddress(p.owner, p.usdcMint, programId)),
    w(yes),
    w(no),
    w(findEscrowTokenAddress(p.owner, yes, programId)),
    w(findEscrowTokenAddress(p.owner, no, programId)),
    ro(TOKEN_PROGRAM_ID),
    ro(ASSOCIATED_TOKEN_PROGRAM_ID),
    ro(SystemProgram.programId),
  ];
}

export function getSplitInstruction(p: MarketOpParams): TransactionInstruction {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  return new TransactionInstruction({ programId, keys: marketOpKeys(p, programId), data: EXCHANGE_DATA.split.encode(p) });
}

export function getMergeInstruction(p: MarketOpParams): TransactionInstruction {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  return new TransactionInstruction({ programId, keys: marketOpKeys(p, programId), data: EXCHANGE_DATA.merge.encode(p) });
}

export function getClobRedeemInstruction(p: MarketOpParams & { outcome: OutcomeByte }): TransactionInstruction {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  return new TransactionInstruction({ programId, keys: marketOpKeys(p, programId), data: EXCHANGE_DATA.redeem.encode(p) });
}
