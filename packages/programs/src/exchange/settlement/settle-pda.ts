/** The OrderState address (the FillReceipt's, `findFillReceiptPda`, lives in ../pda.ts). */
import type { PublicKey } from '@solana/web3.js';
import { findProgramAddressCached } from '../../solana/pda-cache.js';
import { EXCHANGE_PROGRAM_ID } from '../program-id.js';
import { bytesOf } from '../../solana/legacy-message.js';

const ORDER = Buffer.from('order');

export function orderNonceSeed(nonce: bigint): Buffer {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(nonce);
  return b;
}

/** The order's state account: PDA `["order", owner, nonce u64 LE]` (a nonce is unique per owner). */
export function findOrderStatePda(owner: PublicKey, nonce: bigint, programId: PublicKey = EXCHANGE_PROGRAM_ID): [PublicKey, number] {
  return findProgramAddressCached([ORDER, bytesOf(owner), orderNonceSeed(nonce)], programId);
}
