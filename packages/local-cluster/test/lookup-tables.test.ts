/**
 * A lookup table's usable addresses, decoded once per table state (lookup-tables.ts): the same
 * answers as runtime-sysvars.ts's `usableTableAddresses` on the table read afresh, for active,
 * deactivated, just-extended, foreign and malformed tables, and a table's new bytes seen at once.
 */
import { describe, expect, it } from 'vitest';
import type { PublicKey } from '@solana/web3.js';
import { AddressLookupTableProgram, Keypair } from '@solana/web3.js';
import { U64_MAX } from '@pmx/programs';
import { LiteSVM } from 'litesvm';
import { usableLookupTable } from '../src/lookup-tables.js';
import { usableTableAddresses } from '../src/runtime-sysvars.js';
import { readAccount, SYSTEM_PROGRAM, toRuntimeAccount, writeAccount } from '../src/svm-accounts.js';

const ALT = AddressLookupTableProgram.programId.toBase58();

function tableData(t: { deactivation?: bigint; lastExtendedSlot: number; startIndex: number; addresses: PublicKey[] }): Uint8Array {
  const d = Buffer.alloc(56 + 32 * t.addresses.length);
  d.writeUInt32LE(1, 0);
  d.writeBigUInt64LE(t.deactivation ?? U64_MAX, 4);
  d.writeBigUInt64LE(BigInt(t.lastExtendedSlot), 12);
  d[20] = t.startIndex;
  d[21] = 1;
  Keypair.generate().publicKey.toBuffer().copy(d, 22);
  t.addresses.forEach((a, i) => a.toBuffer().copy(d, 56 + 32 * i));
  return d;
}

/** The reference: the table read afresh and decoded by runtime-sysvars.ts. */
function reference(svm: LiteSVM, table: string, slot: number): string[] | null {
  return usableTableAddresses(toRuntimeAccount(readAccount(svm, table)), slot)?.map((a) => a.toBase58()) ?? null;
}

describe('lookup tables decoded once per state', () => {
  it('answers as the reference for every kind of table and slot, and sees a table change', () => {
    const svm = new LiteSVM();
    const keys = Array.from({ length: 6 }, () => Keypair.generate().publicKey);
    const table = Keypair.generate().publicKey.toBase58();
    const states: [string, Uint8Array][] = [
      [ALT, tableData({ lastExtendedSlot: 10, startIndex: 2, addresses: keys.slice(0, 4) })],
      [ALT, tableData({ lastExtendedSlot: 12, startIndex: 4, addresses: keys })], // extended
      [ALT, tableData({ lastExtendedSlot: 12, startIndex: 4, addresses: keys.slice(0, 5) })], // same length prefix differs
      [ALT, tableData({ deactivation: 11n, lastExtendedSlot: 10, startIndex: 0, addresses: keys })],
      [ALT, Uint8Array.from([...tableData({ lastExtendedSlot: 0, startIndex: 0, addresses: keys }), 1])], // not whole addresses
      [ALT, tableData({ lastExtendedSlot: 0, startIndex: 0, addresses: [] })],
      [SYSTEM_PROGRAM, tableData({ lastExtendedSlot: 0, startIndex: 0, addresses: keys })], // not a table's owner
      [ALT, Uint8Array.of(1, 2, 3)],
    ];
    const slots = [9, 10, 11, 12, 13];
    const check = () => {
      for (const slot of slots) expect(usableLookupTable(svm, table, slot), `slot ${slot}`).toEqual(reference(svm, table, slot));
    };
    check(); // no such account
    for (const [owner, data] of [...states, ...states.reverse()]) {
      writeAccount(svm, table, { owner, lamports: 1_000_000n, data, executable: false });
      check();
      check(); // the kept decoding
    }
    expect(usableLookupTable(svm, table, 13)).toEqual(keys.slice(0, 4).map((k) => k.toBase58()));
  });
});
