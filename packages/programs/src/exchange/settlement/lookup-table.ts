/**
 * The market's address lookup tables (Address Lookup Table program), which keep settle
 * transactions small: a looked-up account costs one byte instead of 32. A table holds the
 * market's fixed accounts and, as traders appear, each trader's smart wallet and its USDC, YES
 * and NO accounts (4 per trader; a table holds 256 addresses, so ~61 traders, then a new table).
 * Signers and invoked program ids cannot come from a table. Addresses appended in a slot are
 * usable from the next slot on: extend, wait one slot, then build.
 */
import { AddressLookupTableProgram, PublicKey, type AddressLookupTableAccount, type TransactionInstruction } from '@solana/web3.js';
import { decodeOrderMessage } from '../../orderbook/order-message.js';
import { findClobOutcomeMintPda, findEscrowTokenAddress, findUserEscrowPda } from '../pda.js';
import { EXCHANGE_PROGRAM_ID } from '../program-id.js';
import { settleFixedAccounts } from './settle-instruction.js';
import type { SettlementFill } from './settlement-types.js';

export const LOOKUP_TABLE_CAPACITY = 256;
/** Addresses per extend instruction that keep its transaction under the packet size. */
export const LOOKUP_TABLE_EXTEND_CHUNK = 30;

interface MarketRef {
  operator: PublicKey;
  marketUuid: string;
  usdcMint: PublicKey;
  feeWallet: PublicKey;
  programId?: PublicKey;
}

/** The market's fixed settle accounts (all but the operator, which signs). */
export function marketLookupTableAddresses(m: MarketRef): PublicKey[] {
  return settleFixedAccounts(m)
    .slice(1)
    .map((a) => a.pubkey);
}

/** A trader's smart wallet and its USDC, YES and NO accounts in this market. */
export function traderLookupTableAddresses(owner: PublicKey, m: Omit<MarketRef, 'operator' | 'feeWallet'>): PublicKey[] {
  const programId = m.programId ?? EXCHANGE_PROGRAM_ID;
  const mint = (o: 'yes' | 'no') => findClobOutcomeMintPda(m.marketUuid, o, programId)[0];
  return [
    findUserEscrowPda(owner, programId)[0],
    findEscrowTokenAddress(owner, m.usdcMint, programId),
    findEscrowTokenAddress(owner, mint('yes'), programId),
    findEscrowTokenAddress(owner, mint('no'), programId),
  ];
}

/**
 * What the fills' transactions would look up that the tables do not hold yet (in first-use order,
 * no repeats). Keys compare as hex, not base58 (encoding a table's 256 addresses in base58 took
 * milliseconds per planned batch), and each owner's addresses are derived once per call.
 */
export function missingLookupTableAddresses(
  fills: readonly SettlementFill[],
  m: MarketRef,
  tables: readonly AddressLookupTableAccount[],
): PublicKey[] {
  const hex = (k: PublicKey) => k.toBuffer().toString('hex');
  const held = new Set(tables.flatMap((t) => t.state.addresses.map(hex)));
  const out = new Map<string, PublicKey>();
  const want = (keys: PublicKey[]) =>
    keys.forEach((k) => {
      const h = hex(k);
      if (!held.has(h)) out.set(h, k);
    });
  want(marketLookupTableAddresses(m));
  const owners = new Set<string>();
  for (const f of fills) {
    for (const o of [f.takerOrder, f.makerOrder]) owners.add(Buffer.from(decodeOrderMessage(o.message).owner).toString('hex'));
  }
  for (const owner of owners) want(traderLookupTableAddresses(new PublicKey(Buffer.from(owner, 'hex')), m));
  return [...out.values()];
}

/** Creates a table owned by `authority` (the operator); `recentSlot` must be a recent slot (SlotHashes). */
export function getCreateLookupTableInstruction(p: {
  authority: PublicKey;
  payer: PublicKey;
  recentSlot: bigint;
}): [TransactionInstruction, PublicKey] {
  return AddressLookupTableProgram.createLookupTable({ authority: p.authority, payer: p.payer, recentSlot: p.recentSlot });
}

/** Extend instructions, one per transaction, each within LOOKUP_TABLE_EXTEND_CHUNK addresses. */
export function getExtendLookupTableInstructions(p: {
  table: PublicKey;
  authority: PublicKey;
  payer: PublicKey;
  addresses: readonly PublicKey[];
}): TransactionInstruction[] {
  const out: TransactionInstruction[] = [];
  for (let i = 0; i < p.addresses.length; i += LOOKUP_TABLE_EXTEND_CHUNK) {
    out.push(
      AddressLookupTableProgram.extendLookupTable({
        lookupTable: p.table,
        authority: p.authority,
        payer: p.payer,
        addresses: p.addresses.slice(i, i + LOOKUP_TABLE_EXTEND_CHUNK),
      }),
    );
  }
  return out;
}
