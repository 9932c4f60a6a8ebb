/**
 * CPU of the group commit alone (issue 31, send + confirm): synthetic SPL-transfer records (four
 * account keys, the logs, token balances and three changed accounts of a transfer) recorded in
 * groups of ten (`GROUP`) on a file in WAL mode, as the ledger does. `BASE_STORE` names another checkout's
 * transaction-record.store.ts to compare against, alternated in one process.
 *   npx tsx --conditions=pmx-source bench/support/send-confirm-record-cost.ts [groups] [rounds]
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Keypair } from '@solana/web3.js';
// The store is internal to the package (its entry point exports the type only), and this measures it alone.
// eslint-disable-next-line no-restricted-imports
import { TransactionRecordStore } from '../../packages/local-cluster/src/transaction-record.store.js';

type Store = Pick<TransactionRecordStore, 'recordAll' | 'close'> & { db: { pragma(s: string): unknown }; flushAddressIndex?: () => void };
type StoreClass = new (path: string, journaling: boolean) => Store;

const groups = Number(process.argv[2] ?? 300);
const rounds = Number(process.argv[3] ?? 5);
/** Transactions per group commit (`GROUP=4`: about what the JSON-RPC row lands per turn). */
const GROUP = Number(process.env.GROUP ?? 10);
/** Transactions per deferred address-index write (`INDEX_EVERY`), for a store that defers it. */
const INDEX_EVERY = Number(process.env.INDEX_EVERY ?? 64);
const key = () => Keypair.generate().publicKey.toBase58();
const [payer, src, dst, mint, owner] = [key(), key(), key(), key(), key()];
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const tokenAccount = () => ({ owner: TOKEN, lamports: 2_039_280n, data: randomBytes(165), executable: false });
let n = 0;
function entry() {
  n++;
  const balance = (index: number, amount: bigint) => ({ accountIndex: index, mint, owner, programId: TOKEN, amount, decimals: 6 });
  return {
    record: {
      signature: `${randomBytes(64).toString('base64')}`,
      slot: 100 + Math.floor(n / 40),
      blockTime: 1_700_000_000,
      raw: randomBytes(230),
      err: null,
      logs: [
        `Program ${TOKEN} invoke [1]`,
        'Program log: Instruction: Transfer',
        `Program ${TOKEN} consumed 4644 of 200000 compute units`,
        `Program ${TOKEN} success`,
      ],
      fee: 5000n,
      unitsConsumed: 4644,
      accountKeys: [payer, src, dst, TOKEN],
      signers: [payer],
      writable: [true, true, true, false],
      preBalances: [10_000_000_000n - BigInt(n) * 5000n, 2_039_280n, 2_039_280n, 934_087_680n],
      postBalances: [10_000_000_000n - BigInt(n + 1) * 5000n, 2_039_280n, 2_039_280n, 934_087_680n],
      preTokenBalances: [balance(1, 10n ** 12n - BigInt(n)), balance(2, BigInt(n))],
      postTokenBalances: [balance(1, 10n ** 12n - BigInt(n + 1)), balance(2, BigInt(n + 1))],
    },
    changed: new Map([
      [payer, { owner: '11111111111111111111111111111111', lamports: 10_000_000_000n, data: new Uint8Array(0), executable: false }],
      [src, tokenAccount()],
      [dst, tokenAccount()],
    ]),
  };
}

function measure(Store: StoreClass): { cpuUsPerTx: number; framesPerGroup: number } {
  const dir = mkdtempSync(join(tmpdir(), 'record-cost-'));
  const store = new Store(join(dir, 'ledger.sqlite'), true);
  const batches = Array.from({ length: groups * 2 }, () => Array.from({ length: GROUP }, entry));
  for (const b of batches.slice(0, groups)) store.recordAll(b); // warm: a tree of some depth
  store.flushAddressIndex?.();
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.db.pragma('wal_autocheckpoint = 0');
  const c0 = process.cpuUsage();
  let sinceIndexed = 0;
  for (const b of batches.slice(groups)) {
    store.recordAll(b);
    // A store that writes its address index after the answers does it on a 100 ms timer: about
    // every 64 transactions at the JSON-RPC row's rates. Its cost is counted here.
    if ((sinceIndexed += b.length) >= INDEX_EVERY && store.flushAddressIndex) {
      store.flushAddressIndex();
      sinceIndexed = 0;
    }
  }
  store.flushAddressIndex?.();
  const c = process.cpuUsage(c0);
  const frames = statSync(join(dir, 'ledger.sqlite-wal')).size / 4120;
  store.close();
  rmSync(dir, { recursive: true, force: true });
  return { cpuUsPerTx: (c.user + c.system) / (groups * GROUP), framesPerGroup: frames / groups };
}

const builds: [string, StoreClass][] = [['this', TransactionRecordStore as unknown as StoreClass]];
if (process.env.BASE_STORE) {
  const base = (await import(process.env.BASE_STORE)) as { TransactionRecordStore: StoreClass };
  builds.unshift(['base', base.TransactionRecordStore]);
}
const results = new Map<string, { cpu: number[]; frames: number[] }>(builds.map(([name]) => [name, { cpu: [], frames: [] }]));
for (let r = 0; r < rounds; r++) {
  for (const [name, Store] of r % 2 ? [...builds].reverse() : builds) {
    const m = measure(Store);
    results.get(name)!.cpu.push(m.cpuUsPerTx);
    results.get(name)!.frames.push(m.framesPerGroup);
  }
}
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;
for (const [name, r] of results) {
  console.log(
    `${name}: CPU µs/tx median ${median(r.cpu).toFixed(1)} (${Math.min(...r.cpu).toFixed(1)}–${Math.max(...r.cpu).toFixed(1)}), ` +
      `WAL frames/group ${median(r.frames).toFixed(1)}`,
  );
}
