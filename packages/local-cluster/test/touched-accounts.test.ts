/**
 * The executor's reads of account states kept since the ledger's last write (touched-accounts.ts):
 * a state read twice with no write between is the same state, any write (a landed transaction,
 * setAccount, a slot's sysvars) makes the next read see the new state, and a record's balances
 * are those of the ledger before and after its transaction even when it follows another one.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTransferInstruction, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { LiteSVM } from 'litesvm';
import { EmbeddedLedger } from '../src/ledger.js';
import { SYSTEM_PROGRAM, writeAccount } from '../src/svm-accounts.js';
import { signedTx } from '../src/testing/transactions.js';
import { readTouchedAccount } from '../src/touched-accounts.js';

const plain = (lamports: bigint) => ({ owner: SYSTEM_PROGRAM, lamports, data: new Uint8Array(0), executable: false });

describe('account states kept since the last write', () => {
  let ledger: EmbeddedLedger | undefined;
  afterEach(async () => ledger?.close());

  it('keeps a state while nothing writes, and reads again after any write', () => {
    const svm = new LiteSVM();
    const address = Keypair.generate().publicKey.toBase58();
    expect(readTouchedAccount(svm, address)).toBeNull();
    writeAccount(svm, address, plain(5n));
    const first = readTouchedAccount(svm, address);
    expect(first?.lamports).toBe(5n);
    expect(readTouchedAccount(svm, address)).toBe(first);
    writeAccount(svm, address, plain(7n));
    expect(readTouchedAccount(svm, address)?.lamports).toBe(7n);
  });

  it("gives each record its transaction's balances, through sends, setAccount and slots", async () => {
    ledger = await EmbeddedLedger.open({ slotMs: 60_000 });
    const alice = Keypair.generate();
    const to = Keypair.generate().publicKey;
    await ledger.airdrop(alice.publicKey, 1_000_000_000n);
    const send = async (lamports: bigint) => {
      const { signature } = await ledger!.sendRawTransaction(
        signedTx(ledger!.getLatestBlockhash().blockhash, alice, [
          SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: to, lamports }),
        ]),
      );
      return ledger!.getTransaction(signature)!;
    };
    const a = await send(1_000_000n);
    const b = await send(2_000_000n);
    expect(b.preBalances).toEqual(a.postBalances);
    expect(b.postBalances[0]).toBe(a.postBalances[0]! - 2_000_000n - 5000n);
    ledger.setAccount(alice.publicKey.toBase58(), { owner: SYSTEM_PROGRAM, lamports: 500_000_000n, data: new Uint8Array(0) });
    const c = await send(3_000_000n);
    expect(c.preBalances[0]).toBe(500_000_000n);
    expect(c.preBalances[1]).toBe(b.postBalances[1]);
    ledger.advanceSlots(1);
    const d = await send(4_000_000n);
    expect(d.preBalances).toEqual(c.postBalances);
    expect(ledger.getBalance(alice.publicKey)).toBe(d.postBalances[0]);
  });

  it('gives each token transfer its token balances, the mint read once before it ran', async () => {
    ledger = await EmbeddedLedger.open({ slotMs: 60_000 });
    const alice = Keypair.generate();
    const bob = Keypair.generate().publicKey;
    const mint = new PublicKey(ledger.bootstrapInfo.usdcMint);
    await ledger.airdrop(alice.publicKey, 1_000_000_000n);
    await ledger.mintUsdc(alice.publicKey, 1_000_000n);
    await ledger.mintUsdc(bob, 1n);
    const [from, to] = [alice.publicKey, bob].map((owner) => getAssociatedTokenAddressSync(mint, owner));
    const send = async (amount: bigint) => {
      const ix = createTransferInstruction(from!, to!, alice.publicKey, amount);
      const { signature } = await ledger!.sendRawTransaction(signedTx(ledger!.getLatestBlockhash().blockhash, alice, [ix]));
      return ledger!.getTransaction(signature)!;
    };
    const amounts = (balances: { amount: bigint; decimals: number; mint: string }[]) =>
      balances.map((b) => [b.amount, b.decimals, b.mint === mint.toBase58()]);
    const a = await send(10n);
    const b = await send(20n);
    expect(amounts(a.postTokenBalances)).toEqual([
      [999_990n, 6, true],
      [11n, 6, true],
    ]);
    expect(amounts(b.preTokenBalances)).toEqual(amounts(a.postTokenBalances));
    await ledger.mintUsdc(alice.publicKey, 5n); // the mint itself changes (its supply)
    const c = await send(30n);
    expect(amounts(c.preTokenBalances)).toEqual([
      [999_975n, 6, true],
      [31n, 6, true],
    ]);
  });
});
