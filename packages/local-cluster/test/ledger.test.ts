import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import {
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  createAssociatedTokenAccountIdempotentInstruction,
} from '@solana/spl-token';
import { EmbeddedLedger } from '../src/ledger.js';
import { LedgerError } from '../src/ledger-error.js';
import { signedTx } from '../src/testing/transactions.js';

describe('EmbeddedLedger (memory)', () => {
  let ledger: EmbeddedLedger;
  let alice: Keypair;
  let bob: Keypair;
  let mint: PublicKey;

  beforeEach(async () => {
    ledger = await EmbeddedLedger.open({});
    alice = Keypair.generate();
    bob = Keypair.generate();
    mint = new PublicKey(ledger.bootstrapInfo.usdcMint);
    await ledger.airdrop(alice.publicKey, 1_000_000_000n);
    await ledger.mintUsdc(alice.publicKey, 50_000_000n);
  });
  afterEach(async () => ledger.close());

  const ata = (owner: PublicKey) => getAssociatedTokenAddressSync(mint, owner, true);
  const transferIxs = (amount: bigint) => [
    createAssociatedTokenAccountIdempotentInstruction(alice.publicKey, ata(bob.publicKey), bob.publicKey, mint),
    createTransferInstruction(ata(alice.publicKey), ata(bob.publicKey), alice.publicKey, amount),
  ];

  it('bootstraps a 6-decimal USDC mint and funded platform wallets', () => {
    expect(ledger.getTokenSupply(mint)?.decimals).toBe(6);
    for (const w of Object.values(ledger.bootstrapInfo.wallets)) expect(ledger.getBalance(w)).toBe(100_000_000_000n);
  });

  it('executes a signed SPL transfer and records it with token balances', async () => {
    const raw = signedTx(ledger.getLatestBlockhash().blockhash, alice, transferIxs(12_500_000n));
    const res = await ledger.sendRawTransaction(raw);
    expect(res.err).toBeNull();
    expect(ledger.getTokenBalance(ata(bob.publicKey))).toBe(12_500_000n);
    expect(ledger.getTokenBalance(ata(alice.publicKey))).toBe(37_500_000n);
    const rec = ledger.getTransaction(res.signature)!;
    expect(rec.fee).toBe(5000n);
    expect(rec.signers).toEqual([alice.publicKey.toBase58()]);
    const bobPost = rec.postTokenBalances.find((t) => t.owner === bob.publicKey.toBase58());
    expect(bobPost?.amount).toBe(12_500_000n);
    expect(rec.preTokenBalances.find((t) => t.owner === bob.publicKey.toBase58())).toBeUndefined();
    expect(rec.logs[0]).toMatch(/^Program ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL invoke \[1\]$/);
    expect(ledger.getSignatureStatus(res.signature)).toMatchObject({ err: null, confirmationStatus: 'finalized' });
    expect(ledger.getSignaturesForAddress(bob.publicKey)[0]?.signature).toBe(res.signature);
  });

  it('accepts legacy messages too', async () => {
    const raw = signedTx(
      ledger.getLatestBlockhash().blockhash,
      alice,
      [SystemProgram.transfer({ fromPubkey: alice.publicKey, toPubkey: bob.publicKey, lamports: 1_000_000 })],
      [],
      'legacy',
    );
    expect((await ledger.sendRawTransaction(raw)).err).toBeNull();
    expect(ledger.getBalance(bob.publicKey)).toBe(1_000_000n);
  });

  it('rejects a transaction whose signature does not verify, changing nothing', async () => {
    const raw = signedTx(ledger.getLatestBlockhash().blockhash, alice, transferIxs(1n));
    raw[10] = raw[10]! ^ 0xff; // corrupt the first signature
    const before = ledger.getBalance(alice.publicKey);
    await expect(ledger.sendRawTransaction(raw)).rejects.toMatchObject({ kind: 'signature' });
    expect(ledger.getBalance(alice.publicKey)).toBe(before);
  });

  it('rejects a signature by the wrong key', async () => {
    const mallory = Keypair.generate();
    const raw = signedTx(ledger.getLatestBlockhash().blockhash, alice, transferIxs(1n));
    const forged = signedTx(ledger.getLatestBlockhash().blockhash, mallory, transferIxs(1n));
    raw.set(forged.subarray(1, 65), 1); // mallory's signature in alice's slot
    await expect(ledger.sendRawTransaction(raw)).rejects.toBeInstanceOf(LedgerError);
  });

  it('rejects an expired blockhash and a duplicate', async () => {
    const { blockhash } = ledger.getLatestBlockhash();
    const raw = signedTx(blockhash, alice, transferIxs(1n));
    const { signature } = await ledger.sendRawTransaction(raw);
    await expect(ledger.sendRawTransaction(raw)).rejects.toMatchObject({ kind: 'preflight', err: 'AlreadyProcessed' });
    ledger.advanceSlots(151);
    expect(ledger.isBlockhashValid(blockhash)).toBe(false);
    const stale = signedTx(blockhash, alice, transferIxs(2n));
    await expect(ledger.sendRawTransaction(stale)).rejects.toMatchObject({ kind: 'preflight', err: 'BlockhashNotFound' });
    // Landed, then out of the recent window: still a duplicate (asked of the store), and its status is kept.
    await expect(ledger.sendRawTransaction(raw)).rejects.toMatchObject({ kind: 'preflight', err: 'AlreadyProcessed' });
    expect(ledger.getSignatureStatus(signature)).toMatchObject({ err: null });
    expect(ledger.getTokenBalance(ata(bob.publicKey))).toBe(1n);
  });

  it('is all-or-nothing: a failing second instruction undoes the first and only the fee is charged', async () => {
    const ixs = [...transferIxs(10n), createTransferInstruction(ata(alice.publicKey), ata(bob.publicKey), alice.publicKey, 999_000_000n)];
    const solBefore = ledger.getBalance(alice.publicKey);
    const res = await ledger.sendRawTransaction(signedTx(ledger.getLatestBlockhash().blockhash, alice, ixs));
    expect(res.err).toEqual({ InstructionError: [2, { Custom: 1 }] });
    expect(ledger.getAccount(ata(bob.publicKey))).toBeNull();
    expect(ledger.getTokenBalance(ata(alice.publicKey))).toBe(50_000_000n);
    expect(ledger.getBalance(alice.publicKey)).toBe(solBefore - 5000n);
    const rec = ledger.getTransaction(res.signature)!;
    expect(rec.err).toEqual(res.err);
    expect(rec.logs.at(-1)).toMatch(/failed: custom program error: 0x1$/);
  });

  it('with preflight, a failing transaction throws and charges nothing', async () => {
    const ixs = [createTransferInstruction(ata(alice.publicKey), ata(alice.publicKey), alice.publicKey, 999_000_000n)];
    const solBefore = ledger.getBalance(alice.publicKey);
    const raw = signedTx(ledger.getLatestBlockhash().blockhash, alice, ixs);
    await expect(ledger.sendRawTransaction(raw, { preflight: true })).rejects.toMatchObject({
      kind: 'preflight',
      err: { InstructionError: [0, { Custom: 1 }] },
    });
    expect(ledger.getBalance(alice.publicKey)).toBe(solBefore);
    expect(ledger.simulateTransaction(raw).err).toEqual({ InstructionError: [0, { Custom: 1 }] });
  });

  it('rejects a fee payer that cannot pay the fee without recording it', async () => {
    const broke = Keypair.generate();
    const raw = signedTx(ledger.getLatestBlockhash().blockhash, broke, [
      SystemProgram.transfer({ fromPubkey: broke.publicKey, toPubkey: bob.publicKey, lamports: 1 }),
    ]);
    await expect(ledger.sendRawTransaction(raw)).rejects.toMatchObject({ kind: 'preflight', err: 'AccountNotFound' });
  });

  it('moves the clock with warpTime and slots with time', async () => {
    const t0 = ledger.unixTimestamp;
    ledger.warpTime(3600);
    expect(ledger.unixTimestamp - t0).toBeGreaterThanOrEqual(3600);
    const s0 = ledger.slot;
    ledger.advanceSlots(3);
    expect(ledger.slot).toBe(s0 + 3);
  });
});
