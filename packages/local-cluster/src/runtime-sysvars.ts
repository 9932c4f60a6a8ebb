/**
 * What the embedded runtime derives from the ledger's clock and accounts, as a validator does:
 * the Clock and SlotHashes sysvars LiteSVM exposes to programs, and the addresses of a lookup
 * table a v0 transaction may use.
 */
import { AddressLookupTableAccount, AddressLookupTableProgram, type PublicKey } from '@solana/web3.js';
import { U64_MAX } from '@pmx/programs';
import type { LiteSVM } from 'litesvm';
import type { LedgerClock } from './ledger-clock.js';
import type { RuntimeAccount } from './program-runtime.js';
import { noteAccountWrite } from './write-version.js';

/** SlotHashes entries kept, newest first (a real node keeps 512; lookup tables need only the recent ones). */
const SLOT_HASHES_KEPT = 150;

/**
 * Writes the ledger's slot and unix time into LiteSVM's Clock, and the recent slots' hashes into
 * SlotHashes: the Address Lookup Table program checks a new table's recent_slot against it.
 */
export function syncSysvars(svm: LiteSVM, clock: LedgerClock): void {
  const c = svm.getClock();
  c.slot = BigInt(clock.slot);
  c.unixTimestamp = BigInt(clock.unixTimestamp());
  svm.setClock(c);
  const hashes = [];
  for (let s = clock.slot; s >= 0 && hashes.length < SLOT_HASHES_KEPT; s--) hashes.push({ slot: BigInt(s), hash: clock.blockhashAt(s) });
  svm.setSlotHashes(hashes);
  noteAccountWrite(svm);
}

/**
 * A lookup table's usable addresses at `slot`, as the runtime sees them: the table must be owned
 * by the Address Lookup Table program and active; addresses appended in the current slot are not
 * usable until the next one. Null when the account is no usable table.
 */
export function usableTableAddresses(account: RuntimeAccount | null, slot: number): PublicKey[] | null {
  if (!account || !account.owner.equals(AddressLookupTableProgram.programId)) return null;
  let state: AddressLookupTableAccount['state'];
  try {
    state = AddressLookupTableAccount.deserialize(account.data);
  } catch {
    return null;
  }
  if (state.deactivationSlot !== U64_MAX) return null;
  return state.lastExtendedSlot >= slot ? state.addresses.slice(0, state.lastExtendedSlotStartIndex) : state.addresses;
}
