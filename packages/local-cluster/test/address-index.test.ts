// The address index keyed by address id (issue 31): a ledger written with the text-keyed index
// (user_version 0) opens, is migrated once, and answers getSignaturesForAddress as before.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createTransferInstruction } from '@solana/spl-token';
import { ComputeBudgetProgram } from '@solana/web3.js';
import { ADDRESS_ID_SCHEMA } from '../src/address-index.store.js';
import { EmbeddedLedger } from '../src/ledger.js';
import { signedTx, tempDir, transferPair } from '../src/testing/transactions.js';
import { TransactionRecordStore } from '../src/transaction-record.store.js';
import { recordEntry } from './fixtures/record-entry.js';

/** Rewrites a ledger file's index in the layout every ledger had before the id-keyed one. */
function toTextIndex(file: string): void {
  const db = new Database(file);
  db.exec(`
    CREATE TABLE address_signatures (
      address TEXT NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (address, seq)) WITHOUT ROWID;
    INSERT INTO address_signatures (address, seq)
      SELECT a.address, s.seq FROM address_seqs s JOIN addresses a ON a.id = s.address_id;
    DROP TABLE address_seqs;
    DROP TABLE addresses;
    PRAGMA user_version = 0;`);
  db.close();
}

function tables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]).filter(
      (n) => !n.startsWith('sqlite_'),
    );
  } finally {
    db.close();
  }
}

describe('address index keyed by id', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  it('opens a ledger written with the text-keyed index and answers the same queries', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir.path, 'ledger', 'ledger.sqlite');
    let ledger = await EmbeddedLedger.open({ dataDir: dir.path });
    const { alice, from, to } = await transferPair(ledger, 5_000_000_000n, 1_000_000n);
    const sent: string[] = [];
    for (let i = 0; i < 6; i++) {
      const raw = signedTx(ledger.getLatestBlockhash().blockhash, alice, [
        ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 + i }),
        createTransferInstruction(from, to, alice.publicKey, 1n),
      ]);
      sent.push((await ledger.sendRawTransaction(raw, { groupCommit: true })).signature);
    }
    const queries = (l: EmbeddedLedger) =>
      [alice.publicKey.toBase58(), from.toBase58(), to.toBase58(), ComputeBudgetProgram.programId.toBase58()].map((a) => ({
        all: l.getSignaturesForAddress(a),
        limited: l.getSignaturesForAddress(a, { limit: 2 }),
        window: l.getSignaturesForAddress(a, { before: sent[4], until: sent[1] }),
        tx: l.getTransaction(sent[3]!),
      }));
    const answers = queries(ledger);
    expect(answers[1]!.all.slice(0, 6).map((s) => s.signature)).toEqual([...sent].reverse());
    expect(answers[1]!.window.map((s) => s.signature)).toEqual([sent[3], sent[2]]);
    await ledger.close();

    toTextIndex(file);
    expect(tables(file)).toContain('address_signatures');
    ledger = await EmbeddedLedger.open({ dataDir: dir.path });
    try {
      expect(queries(ledger)).toEqual(answers);
      expect(tables(file)).not.toContain('address_signatures');
      // Transactions landed after the migration are indexed with the migrated ones.
      const raw = signedTx(ledger.getLatestBlockhash().blockhash, alice, [createTransferInstruction(from, to, alice.publicKey, 2n)]);
      const { signature } = await ledger.sendRawTransaction(raw);
      expect(ledger.getSignaturesForAddress(to, { limit: 3 }).map((s) => s.signature)).toEqual([signature, sent[5], sent[4]]);
    } finally {
      await ledger.close();
    }
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(ADDRESS_ID_SCHEMA);
    db.close();
  });

  it('forgets ids assigned in a group that rolled back', () => {
    const store = new TransactionRecordStore(':memory:', false);
    const record = (signature: string, keys: string[]) => recordEntry(signature, keys);
    const sigs = (address: string) => store.signaturesForAddress(address, { limit: 10 }).map((s) => s.signature);
    store.recordAll([record('a', ['K1'])]);
    // The second entry repeats a signature (UNIQUE) after the first gave K2 an id: the group rolls back.
    expect(() => store.recordAll([record('b', ['K1', 'K2']), record('a', ['K1'])])).toThrow();
    expect(sigs('K2')).toEqual([]);
    // K3 now gets the id K2 had in the rolled-back group; a K2 still cached under it would share K3's rows.
    store.recordAll([record('c', ['K3'])]);
    store.recordAll([record('d', ['K2'])]);
    expect(sigs('K3')).toEqual(['c']);
    expect(sigs('K2')).toEqual(['d']);
    expect(sigs('K1')).toEqual(['a']);
    store.close();
  });
});
