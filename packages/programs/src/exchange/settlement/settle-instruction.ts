/**
 * Builds the settle instruction (operator only). Accounts, in order (docs/programs.md):
 *   0 operator (s, w) · 1 config · 2 market (w) · 3 vault (w) · 4 yes_mint (w) · 5 no_mint (w) ·
 *   6 usdc_mint · 7 fee_usdc (w) · 8 instructions sysvar · 9 token · 10 associated token ·
 *   11 system, then per order: order_state (w), escrow, escrow_usdc (w), escrow_outcome (w),
 *   then per fill: fill_receipt (w).
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, SYSVAR_INSTRUCTIONS_PUBKEY, TransactionInstruction, type AccountMeta, type PublicKey } from '@solana/web3.js';
import {
  findClobMarketPda,
  findClobOutcomeMintPda,
  findClobVaultAddress,
  findEscrowTokenAddress,
  findExchangeConfigPda,
  findFillReceiptPda,
  findTokenAccountAddress,
  findUserEscrowPda,
  marketUuidSeed,
} from '../pda.js';
import { EXCHANGE_PROGRAM_ID } from '../program-id.js';
import { encodeSettleData, NO_PROOF } from './settle-data.js';
import { findOrderStatePda } from './settle-pda.js';

export const SETTLE_FIXED_ACCOUNTS = 12;
export const SETTLE_ACCOUNTS_PER_ORDER = 4;

export interface SettleOrderInput {
  owner: PublicKey;
  nonce: bigint;
  outcome: 'yes' | 'no';
  /** Where its signature is proven in this transaction (an Ed25519 instruction and entry); omit when its account exists. */
  proof?: { ix: number; entry: number };
}

export interface SettleFillInput {
  fillId: string;
  /** Indices into `orders`. */
  taker: number;
  maker: number;
  quantity: bigint;
}

export interface SettleInstructionParams {
  operator: PublicKey;
  marketUuid: string;
  usdcMint: PublicKey;
  feeWallet: PublicKey;
  orders: readonly SettleOrderInput[];
  fills: readonly SettleFillInput[];
  /** 16 bytes the program ignores, unique per transaction (settle-data.ts). */
  tag: Uint8Array;
  programId?: PublicKey;
}

const ro = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: false });
const w = (pubkey: PublicKey): AccountMeta => ({ pubkey, isSigner: false, isWritable: true });

interface OwnerAccounts {
  marketUuid: string;
  usdcMint: PublicKey;
  programId: PublicKey;
  escrow: PublicKey;
  usdc: PublicKey;
  /** The owner's order state accounts by nonce, the last few hundred asked (the PDA cache keyed them by seed bytes). */
  states: Map<bigint, PublicKey>;
  /** Each outcome's token account, once asked (an owner trading one outcome never derives the other's). */
  yes?: PublicKey;
  no?: PublicKey;
}

const same = (a: PublicKey, b: PublicKey) => a === b || a.equals(b);

/**
 * An owner's smart wallet and its three token accounts in the last market asked, by owner key
 * object (the assembly keeps one per owner: pda-cache.ts `publicKeyOfBytes`): each compile asked
 * the PDA cache four times per order, each a key built from the seeds.
 */
const ownerAccounts = new WeakMap<PublicKey, OwnerAccounts>();

function accountsOfOwner(owner: PublicKey, marketUuid: string, usdcMint: PublicKey, programId: PublicKey): OwnerAccounts {
  const known = ownerAccounts.get(owner);
  if (known && known.marketUuid === marketUuid && same(known.usdcMint, usdcMint) && same(known.programId, programId)) return known;
  const entry: OwnerAccounts = {
    marketUuid,
    usdcMint,
    programId,
    escrow: findUserEscrowPda(owner, programId)[0],
    usdc: findEscrowTokenAddress(owner, usdcMint, programId),
    states: new Map(),
  };
  ownerAccounts.set(owner, entry);
  return entry;
}

/** The order's four accounts: its state, the owner's smart wallet and its USDC and outcome-token accounts. */
export function settleOrderAccounts(
  o: SettleOrderInput,
  marketUuid: string,
  usdcMint: PublicKey,
  programId: PublicKey = EXCHANGE_PROGRAM_ID,
): AccountMeta[] {
  const a = accountsOfOwner(o.owner, marketUuid, usdcMint, programId);
  const outcome = (a[o.outcome] ??= findEscrowTokenAddress(
    o.owner,
    findClobOutcomeMintPda(marketUuid, o.outcome, programId)[0],
    programId,
  ));
  let state = a.states.get(o.nonce);
  if (state === undefined) {
    if (a.states.size >= 256) a.states.clear();
    a.states.set(o.nonce, (state = findOrderStatePda(o.owner, o.nonce, programId)[0]));
  }
  return [w(state), ro(a.escrow), w(a.usdc), w(outcome)];
}

/** The accounts every settle instruction of a market lists first (operator excluded from lookup tables). */
export function settleFixedAccounts(
  p: Pick<SettleInstructionParams, 'operator' | 'marketUuid' | 'usdcMint' | 'feeWallet' | 'programId'>,
): AccountMeta[] {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  return [
    { pubkey: p.operator, isSigner: true, isWritable: true },
    ro(findExchangeConfigPda(programId)[0]),
    w(findClobMarketPda(p.marketUuid, programId)[0]),
    w(findClobVaultAddress(p.marketUuid, p.usdcMint, programId)),
    w(findClobOutcomeMintPda(p.marketUuid, 'yes', programId)[0]),
    w(findClobOutcomeMintPda(p.marketUuid, 'no', programId)[0]),
    ro(p.usdcMint),
    w(findTokenAccountAddress(p.feeWallet, p.usdcMint)),
    ro(SYSVAR_INSTRUCTIONS_PUBKEY),
    ro(TOKEN_PROGRAM_ID),
    ro(ASSOCIATED_TOKEN_PROGRAM_ID),
    ro(SystemProgram.programId),
  ];
}

/** Fill receipts by fill id (bounded): a fill's receipt was found again, seed parsed and keyed, at each compile that carries it. */
const receipts = new WeakMap<PublicKey, Map<string, PublicKey>>();

function receiptOf(fillId: string, programId: PublicKey): PublicKey {
  let byId = receipts.get(programId);
  if (!byId) receipts.set(programId, (byId = new Map()));
  let receipt = byId.get(fillId);
  if (receipt === undefined) {
    if (byId.size >= 50_000) byId.delete(byId.keys().next().value!);
    byId.set(fillId, (receipt = findFillReceiptPda(fillId, programId)[0]));
  }
  return receipt;
}

export function getSettleInstruction(p: SettleInstructionParams): TransactionInstruction {
  const programId = p.programId ?? EXCHANGE_PROGRAM_ID;
  const keys = [
    ...settleFixedAccounts(p),
    ...p.orders.flatMap((o) => settleOrderAccounts(o, p.marketUuid, p.usdcMint, programId)),
    ...p.fills.map((f) => w(receiptOf(f.fillId, programId))),
  ];
  const data = encodeSettleData({
    tag: p.tag,
    orders: p.orders.map((o) => (o.proof ? { proofIx: o.proof.ix, proofEntry: o.proof.entry } : { proofIx: NO_PROOF, proofEntry: 0 })),
    fills: p.fills.map((f) => ({ fillUuid: marketUuidSeed(f.fillId), taker: f.taker, maker: f.maker, quantity: f.quantity })),
  });
  return new TransactionInstruction({ programId, keys, data });
}
