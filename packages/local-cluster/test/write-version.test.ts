/**
 * The account write version (write-version.ts) changes with every kind of account write the
 * ledger makes (a landed transaction, a failed one that still pays its fee, an airdrop, a faucet
 * mint, setAccount, a slot's sysvars) and stands while only reads happen; a ledger opened afresh
 * never shows a version an earlier one showed.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Keypair, SystemProgram } from '@solana/web3.js';
import { EmbeddedLedger } from '../src/ledger.js';
import { signedTx } from '../src/testing/transactions.js';

describe('account write version', () => {
  let ledger: EmbeddedLedger;
  let alice: Keypair;

  beforeEach(async () => {
    // A slot a minute: no tick moves the version behind a test's back.
    ledger = await EmbeddedLedger.open({ slotMs: 60_000 });
    alice = Keypair.generate();
    await ledger.airdrop(alice.publicKey, 1_000_000_000n);
  });
  afterEach(async () => ledger.close());

  /** Runs `write` and says whether the version moved; reads between do not move it. */
  async function moves(write: () => unknown): Promise<boolean> {
    const before = ledger.accountWriteVersion;
    ledger.getAccount(alice.publicKey);
    ledger.getBalance(alice.publicKey);
    expect(ledger.accountWriteVersion).toBe(before);
    await write();
    return ledger.accountWriteVersion !== before;
  }

  it('stands while only reads happen', async () => {
    expect(await moves(() => ledger.getLatestBlockhash())).toBe(false);
  });

  it('moves with a landed transfer, an airdrop, a faucet mint and setAccount', async () => {
    const to = Keypair.generate().publicKey;
    const transfer = () =>
      ledger.sendRawTransaction(
        signedTx(ledger.getLatestBlockhash().blockhash, alice, [
          SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: to, lamports: 5_000_000n }),
        ]),
      );
    expect(await moves(transfer)).toBe(true);
    expect(await moves(() => ledger.airdrop(to, 1_000_000n))).toBe(true);
    expect(await moves(() => ledger.mintUsdc(to, 1_000_000n))).toBe(true);
    expect(
      await moves(() =>
        ledger.setAccount(Keypair.generate().publicKey.toBase58(), {
          owner: SystemProgram.programId.toBase58(),
          lamports: 1n,
          data: new Uint8Array(0),
        }),
      ),
    ).toBe(true);
  });

  it('moves with a failed transaction that lands (its fee is charged)', async () => {
    const to = Keypair.generate().publicKey;
    const tooMuch = SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: to, lamports: 10_000_000_000n });
    const before = ledger.getBalance(alice.publicKey);
    expect(await moves(() => ledger.sendRawTransaction(signedTx(ledger.getLatestBlockhash().blockhash, alice, [tooMuch])))).toBe(true);
    expect(ledger.getBalance(alice.publicKey)).toBeLessThan(before);
  });

  it('moves with each slot (the Clock and SlotHashes sysvars are accounts too)', async () => {
    expect(await moves(() => ledger.advanceSlots(1))).toBe(true);
    expect(await moves(() => ledger.warpTime(60))).toBe(true);
  });

  it('a ledger opened afresh shows a version never shown before', async () => {
    const seen = ledger.accountWriteVersion;
    const other = await EmbeddedLedger.open({ slotMs: 60_000 });
    try {
      expect(other.accountWriteVersion).toBeGreaterThan(seen);
      expect(ledger.accountWriteVersion).toBe(seen);
    } finally {
      await other.close();
    }
  });
});
