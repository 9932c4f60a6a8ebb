/** The keeper's view of a fill to settle (the engine's Fill, with both signed orders). */
import type { AddressLookupTableAccount, PublicKey } from '@solana/web3.js';
import type { FillType } from '../../orderbook/order-types.js';
import type { OrderStateAccount } from './order-state.js';

export interface SignedOrder {
  /** The 92-byte order message. */
  message: Uint8Array;
  /** The owner's Ed25519 signature of `PMX Order:\n` + hex(message) (64 bytes). */
  signature: Uint8Array;
}

export interface SettlementFill {
  /** The fill's UUID (its receipt's seed). */
  fillId: string;
  fillType: FillType;
  quantity: bigint;
  takerOrder: SignedOrder;
  makerOrder: SignedOrder;
  /**
   * The engine's amounts. They do not travel (the program computes the same numbers from the
   * orders' on-chain totals); `predictSettlement` compares them with what the chain will do.
   */
  usdcAmount?: bigint;
  makerUsdc?: bigint;
  takerFee?: bigint;
  makerRebate?: bigint;
  protocolFee?: bigint;
  roundingDust?: bigint;
}

export interface SettlementContext {
  /** The exchange operator: fee payer and only signer. */
  operator: PublicKey;
  marketUuid: string;
  usdcMint: PublicKey;
  /** config.fee_wallet (the owner of the USDC account that receives protocol fees and dust). */
  feeWallet: PublicKey;
  recentBlockhash: string;
  /**
   * The settle instruction's tag: the outbound row's id (src/services/outbound/outbound-memo.ts,
   * `outboundTag`), in place of a memo instruction that would cost 84 bytes instead of 16.
   */
  tag: Uint8Array;
  /**
   * OrderState accounts already on chain, by address (base58), as read before building: their
   * orders need no signature in the transaction.
   */
  orderStates: ReadonlyMap<string, OrderStateAccount>;
  /** The market's lookup tables, as fetched (only addresses usable now: appended before this slot). */
  lookupTables?: readonly AddressLookupTableAccount[];
  programId?: PublicKey;
}

export class SettlementAssemblyError extends Error {
  constructor(
    readonly code: 'INVALID_FILL' | 'ORDER_NONCE_REUSED' | 'NOTHING_FITS',
    readonly fillId: string | null,
    message: string,
  ) {
    super(message);
    this.name = 'SettlementAssemblyError';
  }
}
