// Group commit (src/group-commit.ts): transactions landed in one turn share one SQLite commit, and
// nothing about a transaction is told (its sender, its events, its status) before that commit.
import { afterEach, describe, expect, it } from 'vitest';
import { ComputeBudgetProgram, SystemProgram } from '@solana/web3.js';
import { createTransferInstruction } from '@solana/spl-token';
import bs58 from 'bs58';
import { EmbeddedLedger } from '../src/ledger.js';
import type { TransactionRecord } from '../src/transaction-record.store.js';
import { signedTx, tempDir, transferPair } from '../src/testing/transactions.js';

const signatureOf = (raw: Uint8Array) => bs58.encode(raw.subarray(1, 65));
/** What the JSON-RPC endpoint asks for; an in-process caller's send commits at once. */
const TURN = { groupCommit: true };

describe('group commit', () => {
  const cleanup: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const fn of cleanup.splice(0).reverse()) await fn();
  });

  async function world(dataDir?: string) {
    const ledger = await EmbeddedLedger.open({ dataDir });
    const { alice, bob, from, to } = await transferPair(ledger, 1_000_000_000n, 50_000_000n);
    /** A distinct transfer of 1 per `n` (distinct compute limits: distinct signatures). */
    const transfer = (n: number) =>
      signedTx(ledger.getLatestBlockhash().blockhash, alice, [
        ComputeBudgetProgram.setComputeUnitLimit({ units: 200_000 + n }),
        createTransferInstruction(from, to, alice.publicKey, 1n),
      ]);
    return { ledger, alice, bob, to, transfer };
  }

  it('answers the transactions sent in one turn only after their shared commit, events in landing order', async () => {
    const { ledger, to, transfer } = await world();
    cleanup.push(() => ledger.close());
    const heard: string[] = [];
    ledger.events.on('transaction', (r: TransactionRecord) => heard.push(r.signature));
    const raws = Array.from({ length: 6 }, (_, i) => transfer(i));
    const sends = raws.map((raw) => ledger.sendRawTransaction(raw, TURN));
    // Executed (state moved) but not yet committed: no status, no record, no event, no answer.
    expect(ledger.getTokenBalance(to)).toBe(6n);
    for (const raw of raws) expect(ledger.getSignatureStatus(signatureOf(raw))).toBeNull();
    expect(heard).toEqual([]);
    const signatures = (await Promise.all(sends.map((s) => Promise.race([s, Promise.resolve(null)])))).filter(Boolean);
    expect(signatures).toEqual([]);
    const results = await Promise.all(sends);
    expect(heard).toEqual(results.map((r) => r.signature));
    for (const r of results) {
      expect(ledger.getSignatureStatus(r.signature)).toMatchObject({ err: null });
      expect(ledger.getTransaction(r.signature)?.err).toBeNull();
    }
  });

  it('commits an in-process send at once, with whatever waits before it', async () => {
    const { ledger, transfer } = await world();
    cleanup.push(() => ledger.close());
    const grouped = transfer(11);
    const direct = transfer(12);
    const first = ledger.sendRawTransaction(grouped, TURN);
    const second = ledger.sendRawTransaction(direct);
    // Both committed before the event loop turns: the second commit took the waiting group along.
    expect(ledger.getSignatureStatus(signatureOf(grouped))).toMatchObject({ err: null });
    expect(ledger.getSignatureStatus(signatureOf(direct))).toMatchObject({ err: null });
    await Promise.all([first, second]);
  });

  it('refuses a duplicate sent in the same turn as already processed', async () => {
    const { ledger, transfer } = await world();
    cleanup.push(() => ledger.close());
    const raw = transfer(7);
    const first = ledger.sendRawTransaction(raw, TURN);
    const second = ledger.sendRawTransaction(raw, TURN);
    await expect(second).rejects.toMatchObject({ kind: 'preflight', err: 'AlreadyProcessed' });
    expect((await first).err).toBeNull();
  });

  it('commits a waiting group before a snapshot, and before a write outside a transaction (journal order)', async () => {
    const dir = tempDir();
    cleanup.push(() => dir.remove());
    const { ledger, alice, bob, to, transfer } = await world(dir.path);
    cleanup.push(() => ledger.close());
    const raws = [transfer(1), transfer(2)];
    const sends = raws.map((raw) => ledger.sendRawTransaction(raw, TURN));
    ledger.snapshot(); // the snapshot holds both transfers' effects: their records are committed first
    for (const raw of raws) expect(ledger.getSignatureStatus(signatureOf(raw))).toMatchObject({ err: null });
    await Promise.all(sends);
    // A payment to bob (landed, not yet committed), then bob's account set directly: the journal
    // must replay them in that order.
    const pay = ledger.sendRawTransaction(
      signedTx(ledger.getLatestBlockhash().blockhash, alice, [
        SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: 5_000_000 }),
      ]),
      TURN,
    );
    const system = SystemProgram.programId.toBase58();
    ledger.setAccount(bob.publicKey.toBase58(), { owner: system, lamports: 123_456_789n, data: new Uint8Array(0) });
    await pay;

    // As after a crash: a second ledger on the same files, without the first one's closing snapshot.
    const reopened = await EmbeddedLedger.open({ dataDir: dir.path });
    cleanup.push(() => reopened.close());
    for (const raw of raws) expect(reopened.getTransaction(signatureOf(raw))?.err).toBeNull();
    expect(reopened.getTokenBalance(to)).toBe(2n);
    expect(reopened.getBalance(bob.publicKey)).toBe(123_456_789n);
  });
});
