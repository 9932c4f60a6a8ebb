/**
 * Account states kept per address (kept-states.ts): a write that says which accounts it can change
 * (setting an account, a transaction LiteSVM executes) drops only those; any other write drops
 * them all; a state just set is kept as LiteSVM would answer it. Whatever the ledger does, every
 * kept state is what a fresh read of LiteSVM answers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTransferInstruction, getAssociatedTokenAddressSync, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { AddressLookupTableAccount, Keypair, PublicKey, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { LiteSVM } from 'litesvm';
import { keptStates } from '../src/kept-states.js';
import { EmbeddedLedger } from '../src/ledger.js';
import { readAccount, sameAccount, SYSTEM_PROGRAM, writeAccount } from '../src/svm-accounts.js';
import { nativeSend, writableAccountsOf } from '../src/svm-raw.js';
import { signedTx } from '../src/testing/transactions.js';
import { readTouchedAccount } from '../src/touched-accounts.js';
import { noteAccountWrite } from '../src/write-version.js';

const plain = (lamports: bigint, data = new Uint8Array(0)) => ({ owner: SYSTEM_PROGRAM, lamports, data, executable: false });

/** Every kept state of `svm` against a fresh read of LiteSVM. */
function expectKeptCurrent(svm: LiteSVM): number {
  const kept = keptStates(svm);
  for (const [address, state] of kept) expect(sameAccount(state, readAccount(svm, address)), address).toBe(true);
  return kept.size;
}

describe('account states kept per address', () => {
  let ledger: EmbeddedLedger | undefined;
  afterEach(async () => ledger?.close());

  it('names the accounts a message can have written: its writable static keys, or null', () => {
    const payer = Keypair.generate();
    const to = Keypair.generate().publicKey;
    const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 1n });
    const blockhash = Keypair.generate().publicKey.toBase58();
    const legacy = signedTx(blockhash, payer, [ix], [], 'legacy');
    expect(writableAccountsOf(legacy)).toEqual([payer.publicKey.toBase58(), to.toBase58()]);
    expect(writableAccountsOf(signedTx(blockhash, payer, [ix], [], 0))).toEqual([payer.publicKey.toBase58(), to.toBase58()]);
    // The runtime reads a legacy message's keys the same way whatever follows them.
    expect(writableAccountsOf(Uint8Array.from([...legacy, 0]))).toEqual([payer.publicKey.toBase58(), to.toBase58()]);
    expect(writableAccountsOf(Uint8Array.from([0x80, 0x00, ...legacy.subarray(1)]))).toBeNull(); // non-minimal count
    const table = new AddressLookupTableAccount({
      key: Keypair.generate().publicKey,
      state: { deactivationSlot: 2n ** 64n - 1n, lastExtendedSlot: 0, lastExtendedSlotStartIndex: 0, addresses: [to] },
    });
    const v0 = new VersionedTransaction(
      new TransactionMessage({ payerKey: payer.publicKey, recentBlockhash: blockhash, instructions: [ix] }).compileToV0Message([table]),
    );
    v0.sign([payer]);
    expect(v0.message.addressTableLookups).toHaveLength(1);
    expect(writableAccountsOf(v0.serialize())).toBeNull(); // loads an account from a table: any account
  });

  it('drops only what a transaction can write, and everything at a write it cannot scope', () => {
    const svm = new LiteSVM();
    const payer = Keypair.generate();
    const to = Keypair.generate().publicKey.toBase58();
    const bystander = Keypair.generate().publicKey.toBase58();
    writeAccount(svm, payer.publicKey.toBase58(), plain(1_000_000_000n));
    writeAccount(svm, bystander, plain(7n, Uint8Array.of(1, 2, 3)));
    const kept = readTouchedAccount(svm, bystander);
    const program = readTouchedAccount(svm, SYSTEM_PROGRAM);
    const before = readTouchedAccount(svm, payer.publicKey.toBase58());
    const ix = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: new PublicKey(to), lamports: 5_000_000n });
    const raw = signedTx(svm.latestBlockhash(), payer, [ix], [], 'legacy');
    expect(readTouchedAccount(svm, to)).toBeNull();
    nativeSend(svm, raw, 'legacy'); // the writable accounts read from the message
    expect(readTouchedAccount(svm, bystander)).toBe(kept);
    expect(readTouchedAccount(svm, SYSTEM_PROGRAM)).toBe(program);
    expect(readTouchedAccount(svm, payer.publicKey.toBase58())?.lamports).toBeLessThan(before!.lamports);
    expect(readTouchedAccount(svm, to)?.lamports).toBe(5_000_000n);
    expectKeptCurrent(svm);
    noteAccountWrite(svm); // the sysvars each slot: any account
    expect(readTouchedAccount(svm, bystander)).not.toBe(kept);
    expect(sameAccount(readTouchedAccount(svm, bystander), kept)).toBe(true);
  });

  it('keeps a state just set as LiteSVM answers it, not the caller’s bytes', () => {
    const svm = new LiteSVM();
    const address = Keypair.generate().publicKey.toBase58();
    readTouchedAccount(svm, address);
    const data = Buffer.from([9, 9, 9]);
    writeAccount(svm, address, plain(3n, data));
    data[0] = 1; // the writer's buffer changes afterwards
    expect(readTouchedAccount(svm, address)?.data).toEqual(Uint8Array.of(9, 9, 9));
    expect(expectKeptCurrent(svm)).toBe(1);
    for (const state of [plain(0n), null, plain(0n, Uint8Array.of(4))]) {
      writeAccount(svm, address, plain(2n));
      writeAccount(svm, address, state); // zero lamports: LiteSVM removes the account
      expect(readTouchedAccount(svm, address)).toBeNull();
    }
    writeAccount(svm, address, plain(1n));
    expect(readTouchedAccount(svm, address)).toEqual(plain(1n));
    expect(expectKeptCurrent(svm)).toBe(1);
  });

  it('holds only current states through transfers, failures, mints, setAccount and slots', async () => {
    ledger = await EmbeddedLedger.open({ slotMs: 60_000 });
    const svm = (ledger as unknown as { svm: LiteSVM }).svm;
    const alice = Keypair.generate();
    const bob = Keypair.generate().publicKey;
    const mint = new PublicKey(ledger.bootstrapInfo.usdcMint);
    await ledger.airdrop(alice.publicKey, 1_000_000_000n);
    await ledger.mintUsdc(alice.publicKey, 1_000n);
    await ledger.mintUsdc(bob, 1n);
    const [from, to] = [alice.publicKey, bob].map((owner) => getAssociatedTokenAddressSync(mint, owner));
    const send = (amount: bigint) =>
      ledger!.sendRawTransaction(
        signedTx(ledger!.getLatestBlockhash().blockhash, alice, [createTransferInstruction(from!, to!, alice.publicKey, amount)]),
      );
    await send(10n);
    const program = readTouchedAccount(svm, TOKEN_PROGRAM_ID.toBase58());
    expect((await send(20n)).err).toBeNull();
    expect(readTouchedAccount(svm, TOKEN_PROGRAM_ID.toBase58())).toBe(program); // read-only: kept
    expect((await send(1_000_000n)).err).not.toBeNull(); // fails: only the fee is charged
    expect(expectKeptCurrent(svm)).toBeGreaterThan(3);
    await ledger.mintUsdc(alice.publicKey, 5n);
    ledger.setAccount(alice.publicKey.toBase58(), { owner: SYSTEM_PROGRAM, lamports: 500_000_000n, data: new Uint8Array(0) });
    await send(30n);
    expectKeptCurrent(svm);
    ledger.advanceSlots(1);
    await send(40n);
    expectKeptCurrent(svm);
    const rec = ledger.getTransaction((await send(50n)).signature)!;
    expect(rec.preTokenBalances.map((b) => b.amount)).toEqual([1_000n + 5n - 100n, 1n + 100n]);
  });
});
