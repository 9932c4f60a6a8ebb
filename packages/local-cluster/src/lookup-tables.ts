/**
 * The addresses a v0 transaction's lookup table serves, decoded once per table state (issue 31,
 * fourteenth pass). Every settle transaction names the market's table; reading it copied the
 * account out of LiteSVM, decoded it with web3.js (a PublicKey per address, through bn.js) and
 * turned each used address back into base58, about 4–6 % of a settle transaction. Now the table's
 * state is read through the kept states (touched-accounts.ts: no copy while nothing writes it),
 * and its decoding, with every address as text, is kept while its bytes stay the same. The rules
 * are runtime-sysvars.ts's `usableTableAddresses`, which the tests compare this with.
 */
import { AddressLookupTableAccount, AddressLookupTableProgram } from '@solana/web3.js';
import { U64_MAX } from '@pmx/programs';
import type { LiteSVM } from 'litesvm';
import type { StoredAccount } from './svm-accounts.js';
import { addressText } from './svm-raw.js';
import { readTouchedAccount } from './touched-accounts.js';

const ALT_PROGRAM = AddressLookupTableProgram.programId.toBase58();
/** Past this many tables kept per ledger, they are dropped (a market has one). */
const TABLES_KEPT = 1024;

interface Decoded {
  /** The state it was decoded from (shared, never changed in place). */
  state: StoredAccount;
  /** Null: not a usable table (undecodable or deactivated), whatever the slot. */
  usable: { lastExtendedSlot: number; all: string[]; beforeLastExtension: string[] } | null;
}

const tables = new WeakMap<LiteSVM, Map<string, Decoded>>();

function decode(state: StoredAccount): Decoded {
  let s: AddressLookupTableAccount['state'];
  try {
    s = AddressLookupTableAccount.deserialize(Buffer.from(state.data.buffer, state.data.byteOffset, state.data.byteLength));
  } catch {
    return { state, usable: null };
  }
  if (s.deactivationSlot !== U64_MAX) return { state, usable: null };
  const all = s.addresses.map((a) => addressText(a.toBytes()));
  return { state, usable: { lastExtendedSlot: s.lastExtendedSlot, all, beforeLastExtension: all.slice(0, s.lastExtendedSlotStartIndex) } };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(b);
}

/**
 * A lookup table's usable addresses at `slot`, as the runtime sees them: the table must be owned
 * by the Address Lookup Table program and active; addresses appended in the current slot are not
 * usable until the next one. Null when the account is no usable table. Shared: not to be changed.
 */
export function usableLookupTable(svm: LiteSVM, table: string, slot: number): readonly string[] | null {
  const state = readTouchedAccount(svm, table);
  if (!state || state.owner !== ALT_PROGRAM) return null;
  let known = tables.get(svm);
  if (!known) tables.set(svm, (known = new Map()));
  let decoded = known.get(table);
  if (decoded === undefined || !sameBytes(decoded.state.data, state.data)) {
    if (known.size >= TABLES_KEPT) known.clear();
    known.set(table, (decoded = decode(state)));
  }
  const u = decoded.usable;
  if (!u) return null;
  return u.lastExtendedSlot >= slot ? u.beforeLastExtension : u.all;
}
