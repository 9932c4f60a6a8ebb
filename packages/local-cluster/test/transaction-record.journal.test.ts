// The account journal of a group commit (issue 31, fourteenth pass): an account changed by several
// transactions of one group is journaled once, with its last post-state, and a reopen replays
// the journal to the same accounts as one row per change would. The group's records are one INSERT.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Keypair } from '@solana/web3.js';
import { openState } from '../src/ledger-persistence.js';
import { readAccount } from '../src/svm-accounts.js';
import type { StoredAccount } from '../src/svm-accounts.js';
import { tempDir } from '../src/testing/transactions.js';
import { TransactionRecordStore } from '../src/transaction-record.store.js';
import { recordEntry } from './fixtures/record-entry.js';

const SYSTEM = '11111111111111111111111111111111';
const account = (lamports: bigint, data: number[] = []): StoredAccount => ({
  owner: SYSTEM,
  lamports,
  data: new Uint8Array(data),
  executable: false,
});

function entry(signature: string, changed: [string, StoredAccount | null][]) {
  return recordEntry(
    signature,
    changed.map(([a]) => a),
    { changed: new Map(changed) },
  );
}

describe('account journal of a group commit', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  it("journals each account's last state in the group once, and reopens to it", () => {
    const dir = tempDir();
    dirs.push(dir);
    mkdirSync(join(dir.path, 'ledger'));
    const [x, y, z, w] = Array.from({ length: 4 }, () => Keypair.generate().publicKey.toBase58()) as [string, string, string, string];
    const store = new TransactionRecordStore(join(dir.path, 'ledger', 'ledger.sqlite'), true);
    store.recordAll([entry('a', [[w, account(7n)]])]);
    store.recordAll([
      entry('b', [
        [x, account(1n, [1])],
        [y, account(2n, [2, 2])],
        [w, account(8n)],
      ]),
      entry('c', [[x, account(3n, [3, 3, 3])]]),
      entry('d', [
        [w, null],
        [z, account(4n)],
      ]),
    ]);
    const rows = store.journalSince(0).map((r) => [r.address, r.account?.lamports ?? null]);
    expect(rows).toEqual([
      [w, 7n],
      [x, 3n],
      [y, 2n],
      [w, null],
      [z, 4n],
    ]);
    // The group's records went in with one statement: each index row names its own record's seq.
    store.flushAddressIndex();
    const sigs = (address: string) => store.signaturesForAddress(address, { limit: 10 }).map((s) => s.signature);
    expect([sigs(w), sigs(x), sigs(z)]).toEqual([['d', 'b', 'a'], ['c', 'b'], ['d']]);
    store.close();

    const { svm, store: reopened } = openState(dir.path);
    try {
      expect(readAccount(svm, x)).toEqual(account(3n, [3, 3, 3]));
      expect(readAccount(svm, y)).toEqual(account(2n, [2, 2]));
      expect(readAccount(svm, z)).toEqual(account(4n));
      expect(readAccount(svm, w)).toBeNull();
      expect(reopened.transactionCount()).toBe(4);
    } finally {
      reopened.close();
    }
  });
});
