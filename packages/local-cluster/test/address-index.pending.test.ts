// The address index's rows written after the answer (address-index.pending.ts): answers while
// rows wait in memory are those of the written index, and a kill -9 before they are written
// loses none of them (they are indexed again from the records at open).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedLedger } from '../src/ledger.js';
import { tempDir } from '../src/testing/transactions.js';
import { TransactionRecordStore } from '../src/transaction-record.store.js';
import { recordEntry } from './fixtures/record-entry.js';

const writer = fileURLToPath(new URL('./fixtures/unindexed-writer.ts', import.meta.url));

type Answers = { sent: string[]; addresses: string[]; answers: unknown[][] };

function runWriter(dataDir: string): Promise<Answers> {
  const child = spawn(process.execPath, ['--conditions=pmx-source', '--import', 'tsx', writer, dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('exit', (code, sig) =>
      sig === 'SIGKILL' ? resolve(JSON.parse(out) as Answers) : reject(new Error(`writer exited without kill -9: ${code}`)),
    ),
  );
}

function indexState(file: string): { watermark: number; maxSeq: number } {
  const db = new Database(file, { readonly: true });
  try {
    const watermark = Number(db.prepare("SELECT value FROM meta WHERE key = 'address_indexed_seq'").pluck().get());
    const maxSeq = db.prepare('SELECT MAX(seq) FROM transactions').pluck().get() as number;
    return { watermark, maxSeq };
  } finally {
    db.close();
  }
}

describe('address index rows written after the answer', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  it('answers the same from memory as from the index, and a kill -9 before the rows are written loses none', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const before = await runWriter(dir.path);
    const file = join(dir.path, 'ledger', 'ledger.sqlite');
    // The writer died with the second half's rows still waiting: six records above the indexed seq.
    const killed = indexState(file);
    expect(killed.maxSeq - killed.watermark).toBe(6);

    const ledger = await EmbeddedLedger.open({ dataDir: dir.path });
    try {
      expect(indexState(file)).toEqual({ watermark: killed.maxSeq, maxSeq: killed.maxSeq });
      const { sent, addresses, answers } = before;
      const after = addresses.map((a) => [
        ledger.getSignaturesForAddress(a),
        ledger.getSignaturesForAddress(a, { limit: 2 }),
        ledger.getSignaturesForAddress(a, { limit: 8 }),
        ledger.getSignaturesForAddress(a, { before: sent[9], until: sent[2] }),
        ledger.getSignaturesForAddress(a, { before: sent[4], limit: 3 }),
        ledger.getSignaturesForAddress(a, { until: sent[7] }),
      ]);
      expect(JSON.parse(JSON.stringify(after))).toEqual(answers);
      // And they are what they should be: the source account's history, newest first, its failed transfer with its err.
      const all = (answers[1]![0] as { signature: string; err: unknown }[]).slice(0, 12);
      expect(all.map((s) => s.signature)).toEqual([...sent].reverse());
      expect(all.filter((s) => s.err !== null).map((s) => s.signature)).toEqual([sent[6]]);
      expect((answers[1]![3] as { signature: string }[]).map((s) => s.signature)).toEqual(sent.slice(3, 9).reverse());
    } finally {
      await ledger.close();
    }
  });

  it('takes a ledger written before (no indexed seq) as fully indexed', () => {
    const dir = tempDir();
    dirs.push(dir);
    const file = join(dir.path, 'ledger.sqlite');
    const record = (signature: string) => recordEntry(signature, ['K1']);
    let store = new TransactionRecordStore(file, true);
    store.recordAll([record('a'), record('b')]);
    store.close();
    const db = new Database(file);
    db.prepare("DELETE FROM meta WHERE key = 'address_indexed_seq'").run();
    db.close();
    store = new TransactionRecordStore(file, true);
    try {
      expect(indexState(file).watermark).toBe(2);
      expect(store.signaturesForAddress('K1', { limit: 10 }).map((s) => s.signature)).toEqual(['b', 'a']);
    } finally {
      store.close();
    }
  });
});

describe('a failed write of the waiting rows', () => {
  it('keeps them waiting and answered, forgets the ids it gave, and writes them at the next try', () => {
    const store = new TransactionRecordStore(':memory:', false);
    const record = (signature: string, keys: string[]) =>
      recordEntry(signature, keys, { err: signature === 'b' ? { InstructionError: [0, { Custom: 1 }] } : null });
    const answers = () => ['K1', 'K2', 'K3'].map((k) => store.signaturesForAddress(k, { limit: 10 }));
    const rows = () => store.db.prepare('SELECT COUNT(*) FROM address_seqs').pluck().get();
    try {
      store.recordAll([record('a', ['K1'])]);
      store.flushAddressIndex();
      store.recordAll([record('b', ['K1', 'K2'])]);
      store.recordAll([record('c', ['K2', 'K3'])]);
      const waiting = answers();
      expect(waiting.map((a) => a.map((s) => s.signature))).toEqual([['b', 'a'], ['c', 'b'], ['c']]);
      expect(waiting[0]![0]!.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
      // The write fails after K2 got an id: nothing of it stays, and the rows are still answered.
      store.db.exec("CREATE TEMP TRIGGER fail BEFORE INSERT ON address_seqs BEGIN SELECT RAISE(ABORT, 'disk full'); END");
      store.flushAddressIndex();
      expect(rows()).toBe(1);
      expect(store.db.prepare("SELECT COUNT(*) FROM addresses WHERE address = 'K2'").pluck().get()).toBe(0);
      expect(answers()).toEqual(waiting);
      store.db.exec('DROP TRIGGER fail');
      store.flushAddressIndex();
      expect(rows()).toBe(5);
      expect(answers()).toEqual(waiting);
      // Every id the rows name exists: a cached id of the rolled-back write would name no address after a restart.
      expect(store.db.prepare('SELECT address FROM addresses ORDER BY id').pluck().all()).toEqual(['K1', 'K2', 'K3']);
    } finally {
      store.close();
    }
  });
});
