/**
 * Durable ledger state under DATA_DIR/ledger/: `ledger.sqlite` (records + account journal + meta)
 * and `snapshot.bin` (a full LiteSVM image, ~1.4 MB). Opening loads the snapshot and re-applies
 * every journaled account state written after it, in order; replaying post-states is idempotent,
 * so a crash between writing a snapshot and pruning the journal loses nothing.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { LiteSVM } from 'litesvm';
import { writeAccount } from './svm-accounts.js';
import { TransactionRecordStore } from './transaction-record.store.js';

export interface OpenedState {
  svm: LiteSVM;
  store: TransactionRecordStore;
  seed: Buffer;
  startSlot: number;
  timeOffsetSec: number;
  replayed: number;
}

/** LiteSVM as the ledger drives it: the ledger verifies signatures, blockhashes and duplicates. */
export function configureSvm(svm: LiteSVM): LiteSVM {
  return svm.withSigverify(false).withBlockhashCheck(false).withTransactionHistory(0n);
}

export function openState(dataDir: string | undefined): OpenedState {
  if (!dataDir) {
    const store = new TransactionRecordStore(':memory:', false);
    return { svm: configureSvm(new LiteSVM()), store, seed: randomBytes(32), startSlot: 1, timeOffsetSec: 0, replayed: 0 };
  }
  const dir = join(dataDir, 'ledger');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const store = new TransactionRecordStore(join(dir, 'ledger.sqlite'), true);
  const snapshotPath = join(dir, 'snapshot.bin');
  const hasSnapshot = existsSync(snapshotPath);
  const svm = configureSvm(hasSnapshot ? LiteSVM.fromBytes(readFileSync(snapshotPath)) : new LiteSVM());
  const fromJseq = hasSnapshot ? Number(store.getMeta('snapshot_jseq') ?? '0') : 0;
  const entries = store.journalSince(fromJseq);
  for (const e of entries) writeAccount(svm, e.address, e.account);
  let seedHex = store.getMeta('seed');
  if (!seedHex) {
    seedHex = randomBytes(32).toString('hex');
    store.setMeta('seed', seedHex);
  }
  const startSlot = Math.max(Number(store.getMeta('slot') ?? '0'), store.maxSlot()) + 1;
  const timeOffsetSec = Number(store.getMeta('time_offset') ?? '0');
  return { svm, store, seed: Buffer.from(seedHex, 'hex'), startSlot, timeOffsetSec, replayed: entries.length };
}

/**
 * Writes full snapshots that compact the journal: every `everyTransactions` landed transactions
 * or `everyMs` after the first unsnapshotted one, and on close.
 */
export class Snapshotter {
  private dirty = 0;
  private firstDirtyAt = 0;
  lastDurationMs = 0;

  constructor(
    private readonly dataDir: string | undefined,
    private readonly svm: () => LiteSVM,
    private readonly store: TransactionRecordStore,
    private readonly slot: () => number,
    private readonly everyTransactions = 2000,
    private readonly everyMs = 60_000,
  ) {}

  noteTransaction(): void {
    if (this.dirty++ === 0) this.firstDirtyAt = Date.now();
    if (this.dirty >= this.everyTransactions) this.snapshot();
  }

  maybeSnapshot(): void {
    if (this.dirty > 0 && Date.now() - this.firstDirtyAt >= this.everyMs) this.snapshot();
  }

  snapshot(): void {
    this.store.setMeta('slot', String(this.slot()));
    if (!this.dataDir) return;
    const started = performance.now();
    const dir = join(this.dataDir, 'ledger');
    const bytes = this.svm().toBytes();
    const jseq = this.store.lastJseq();
    const tmp = join(dir, 'snapshot.bin.tmp');
    const fd = openSync(tmp, 'w', 0o600);
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, join(dir, 'snapshot.bin'));
    const dirFd = openSync(dir, 'r');
    fsyncSync(dirFd);
    closeSync(dirFd);
    this.store.db.transaction(() => {
      this.store.setMeta('snapshot_jseq', String(jseq));
      this.store.pruneJournal(jseq);
    })();
    this.dirty = 0;
    this.lastDurationMs = performance.now() - started;
  }
}
