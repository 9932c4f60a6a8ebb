/**
 * Post-states of accounts whose owner did not run (touched-accounts.ts `changed`): after a
 * transaction LiteSVM runs alone, an account whose owner program neither was an instruction's
 * program nor was invoked can only have had lamports moved, so the ledger reads its balance, not
 * the whole account. Through token transfers (the fee payer, System-owned, System not run), a
 * close that credits a System-owned account through the token program, SOL transfers and an ATA
 * creation (System runs, directly or by CPI), and failing transfers, every post-state the ledger
 * kept and journaled is what a fresh read of LiteSVM answers, and the records' balances are the
 * accounts' real lamports.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { keptStates } from '../src/kept-states.js';
import { EmbeddedLedger } from '../src/ledger.js';
import { readAccount, sameAccount } from '../src/svm-accounts.js';
import { native } from '../src/svm-raw.js';
import { signedTx, tempDir } from '../src/testing/transactions.js';

const svmOf = (ledger: EmbeddedLedger) => (ledger as unknown as { svm: LiteSVM }).svm;

describe('post-states of accounts whose owner did not run', () => {
  let ledger: EmbeddedLedger | undefined;
  const dirs: { remove(): void }[] = [];
  afterEach(async () => {
    await ledger?.close();
    dirs.splice(0).forEach((d) => d.remove());
  });

  it('a token transfer reads its two token accounts in full and its fee payer by balance only', async () => {
    ledger = await EmbeddedLedger.open({ slotMs: 60_000 });
    const alice = Keypair.generate();
    const bob = Keypair.generate().publicKey;
    await ledger.airdrop(alice.publicKey, 1_000_000_000n);
    await ledger.mintUsdc(alice.publicKey, 1_000_000n);
    await ledger.mintUsdc(bob, 1n);
    const mint = new PublicKey(ledger.bootstrapInfo.usdcMint);
    const [src, dst] = [getAssociatedTokenAddressSync(mint, alice.publicKey), getAssociatedTokenAddressSync(mint, bob)];
    const transfer = (amount: bigint) =>
      signedTx(ledger!.getLatestBlockhash().blockhash, alice, [createTransferInstruction(src, dst, alice.publicKey, amount)]);
    await ledger.sendRawTransaction(transfer(1n)); // its states kept for the next one
    // Count the binding's full account reads during one more transfer.
    const binding = native(svmOf(ledger));
    const full: string[] = [];
    const getAccount = binding.getAccount.bind(binding);
    binding.getAccount = (key: Uint8Array) => (full.push(new PublicKey(key).toBase58()), getAccount(key));
    try {
      await ledger.sendRawTransaction(transfer(2n));
    } finally {
      binding.getAccount = getAccount;
    }
    expect(full.sort()).toEqual([src.toBase58(), dst.toBase58()].sort());
    const rec = ledger.getTransaction((await ledger.sendRawTransaction(transfer(3n))).signature)!;
    expect(rec.postBalances[0]).toBe(ledger.getBalance(alice.publicKey));
    expect(rec.preBalances[0]! - rec.postBalances[0]!).toBe(5000n);
  });

  it('keeps and journals only what LiteSVM holds, whoever moved the lamports', async () => {
    const dir = tempDir();
    dirs.push(dir);
    ledger = await EmbeddedLedger.open({ dataDir: dir.path, slotMs: 60_000 });
    const [alice, bob, carol, dave] = [Keypair.generate(), Keypair.generate(), Keypair.generate(), Keypair.generate()];
    for (const k of [alice, bob, carol]) await ledger.airdrop(k.publicKey, 1_000_000_000n);
    await ledger.mintUsdc(alice.publicKey, 1_000_000n);
    const mint = new PublicKey(ledger.bootstrapInfo.usdcMint);
    const ata = (owner: PublicKey) => getAssociatedTokenAddressSync(mint, owner);
    const blockhash = () => ledger!.getLatestBlockhash().blockhash;
    await ledger.airdrop(ata(dave.publicKey), 1_000_000n);
    // Read now, so the ledger holds its System-owned state when the CPIs assign it.
    expect(readAccount(svmOf(ledger), ata(dave.publicKey).toBase58())?.owner).toBe(SystemProgram.programId.toBase58());
    const sends: Array<[Keypair, Parameters<typeof signedTx>[2]]> = [
      // Bob pays for an ATA of his own: the ATA program invokes System and Token (CPIs).
      [bob, [createAssociatedTokenAccountIdempotentInstruction(bob.publicKey, ata(bob.publicKey), bob.publicKey, mint)]],
      [alice, [createTransferInstruction(ata(alice.publicKey), ata(bob.publicKey), alice.publicKey, 7n)]],
      // Alice pays, bob signs: his account's tokens go back, then it is closed to carol (System-owned, credited by Token).
      [
        alice,
        [
          createTransferInstruction(ata(bob.publicKey), ata(alice.publicKey), bob.publicKey, 7n),
          createCloseAccountInstruction(ata(bob.publicKey), carol.publicKey, bob.publicKey),
        ],
      ],
      [alice, [SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: carol.publicKey, lamports: 3n })]],
      [alice, [createTransferInstruction(ata(alice.publicKey), ata(carol.publicKey), alice.publicKey, 1n)]], // no such account: fails, fee only
      [alice, [createTransferInstruction(ata(alice.publicKey), ata(alice.publicKey), alice.publicKey, 10n ** 9n)]], // too many: fails
      [carol, [createTransferInstruction(ata(alice.publicKey), ata(alice.publicKey), carol.publicKey, 1n)]], // wrong owner: fails
      // Dave's ATA address already holds lamports (System-owned): the ATA program has System
      // allocate and assign it by CPI, so its owner and data change with no top-level System instruction.
      [alice, [createAssociatedTokenAccountIdempotentInstruction(alice.publicKey, ata(dave.publicKey), dave.publicKey, mint)]],
    ];
    const balances = () => [alice, bob, carol].map((k) => ledger!.getBalance(k.publicKey));
    for (const [payer, ixs] of sends) {
      const signers = ixs.some((ix) => ix.keys.some((k) => k.isSigner && k.pubkey.equals(bob.publicKey))) && payer !== bob ? [bob] : [];
      const raw = signedTx(blockhash(), payer, ixs, signers);
      const before = balances();
      const sent = await ledger.sendRawTransaction(raw);
      const rec = ledger.getTransaction(sent.signature)!;
      // The record's balances are what LiteSVM holds.
      rec.accountKeys.forEach((key, i) => expect(rec.postBalances[i], key).toBe(ledger!.getBalance(key)));
      expect(balances()).not.toEqual(before);
      for (const [address, state] of keptStates(svmOf(ledger))) {
        expect(sameAccount(state, readAccount(svmOf(ledger), address)), address).toBe(true);
      }
    }
    expect(ledger.getBalance(carol.publicKey)).toBeGreaterThan(1_000_000_003n); // the close's rent reached her
    expect(ledger.getTokenAccountsByOwner(dave.publicKey, { mint: mint.toBase58() })).toHaveLength(1);
    const states = [alice, bob, carol].map((k) => readAccount(svmOf(ledger!), k.publicKey.toBase58()));
    await ledger.close();
    // The journal replays to the same states (a reopen without the snapshot's help is the journal's test).
    ledger = await EmbeddedLedger.open({ dataDir: dir.path, slotMs: 60_000 });
    [alice, bob, carol].forEach((k, i) => expect(sameAccount(readAccount(svmOf(ledger!), k.publicKey.toBase58()), states[i]!)).toBe(true));
  });
});
