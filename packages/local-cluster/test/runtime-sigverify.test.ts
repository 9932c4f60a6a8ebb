/**
 * Signature checks of the transactions LiteSVM runs alone: LiteSVM verifies them as it executes
 * (ed25519-dalek's verify_strict, Agave's own), and the ledger answers exactly as when it verified
 * them first itself: forgeries refused as signature failures that charge and record nothing, and
 * a bad signature reported before any other refusal (stale blockhash, duplicate, broke fee payer).
 */
import { Keypair, PublicKey, SystemProgram } from '@solana/web3.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EmbeddedLedger } from '../src/ledger.js';
import { parseTransaction } from '../src/parsed-transaction.js';
import { configureSvm } from '../src/ledger-persistence.js';
import { nativeSend } from '../src/svm-raw.js';
import { signedTx } from '../src/testing/transactions.js';
import { LiteSVM } from 'litesvm';

const L = 2n ** 252n + 27742317777372353535851937790883648493n;
/** The identity point's encoding: a small-order key that "signs" anything with R = identity, S = 0. */
const IDENTITY = new PublicKey(Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0)));

/** The first signature's S replaced by S + L (same point, non-canonical scalar). */
function withMalleatedS(raw: Uint8Array): Uint8Array {
  const out = Uint8Array.from(raw);
  let s = 0n;
  for (let i = 31; i >= 0; i--) s = (s << 8n) | BigInt(out[33 + i]!);
  s += L;
  for (let i = 0; i < 32; i++, s >>= 8n) out[33 + i] = Number(s & 0xffn);
  return out;
}

const flipped = (raw: Uint8Array, at: number) => {
  const out = Uint8Array.from(raw);
  out[at]! ^= 1;
  return out;
};

describe('signatures of the transactions LiteSVM runs alone', () => {
  let ledger: EmbeddedLedger;
  const alice = Keypair.generate();
  const transfer = (from: PublicKey, lamports: number) =>
    SystemProgram.transfer({ fromPubkey: from, toPubkey: Keypair.generate().publicKey, lamports });

  beforeEach(async () => {
    ledger = await EmbeddedLedger.open({});
    await ledger.airdrop(alice.publicKey, 1_000_000_000n);
    await ledger.airdrop(IDENTITY, 1_000_000_000n);
  });
  afterEach(async () => ledger.close());

  const refusedAsSignature = async (raw: Uint8Array, preflight: boolean) => {
    const before = ledger.transactionCount;
    const sol = ledger.getBalance(alice.publicKey);
    await expect(ledger.sendRawTransaction(raw, { preflight })).rejects.toMatchObject({ kind: 'signature' });
    expect(ledger.transactionCount).toBe(before);
    expect(ledger.getBalance(alice.publicKey)).toBe(sol);
  };

  for (const preflight of [true, false]) {
    it(`refuses forgeries and charges nothing (preflight ${preflight})`, async () => {
      const raw = signedTx(ledger.getLatestBlockhash().blockhash, alice, [transfer(alice.publicKey, 1_000_000)]);
      await refusedAsSignature(flipped(raw, 5), preflight); // a corrupted signature
      await refusedAsSignature(flipped(raw, raw.length - 5), preflight); // a changed message
      await refusedAsSignature(withMalleatedS(raw), preflight);
      // The small-order key's universal "signature": accepted by a cofactorless verify, not by verify_strict.
      const identityPaid = signedTx(ledger.getLatestBlockhash().blockhash, Keypair.generate(), [transfer(IDENTITY, 1_000_000)]);
      const asIdentity = Uint8Array.from(identityPaid);
      asIdentity.set(
        Uint8Array.from({ length: 64 }, (_, i) => (i === 0 ? 1 : 0)),
        1,
      );
      await expect(ledger.sendRawTransaction(asIdentity, { preflight })).rejects.toMatchObject({ kind: 'signature' });
      // The genuine one still lands.
      expect((await ledger.sendRawTransaction(raw, { preflight })).err).toBeNull();
    });
  }

  it('reports a bad signature before a stale blockhash, a duplicate or a fee payer that cannot pay', async () => {
    const { blockhash } = ledger.getLatestBlockhash();
    const raw = signedTx(blockhash, alice, [transfer(alice.publicKey, 1_000_000)]);
    await ledger.sendRawTransaction(raw);
    // Same first signature (the transaction's id), another amount: not AlreadyProcessed.
    await refusedAsSignature(flipped(raw, raw.length - 5), true);
    const broke = Keypair.generate();
    await refusedAsSignature(flipped(signedTx(blockhash, broke, [transfer(broke.publicKey, 1_000_000)]), 5), true);
    await refusedAsSignature(flipped(signedTx(blockhash, broke, [transfer(broke.publicKey, 1_000_000)]), 5), false);
    ledger.advanceSlots(151);
    await refusedAsSignature(flipped(signedTx(blockhash, alice, [transfer(alice.publicKey, 2_000_000)]), 5), true);
    await expect(ledger.sendRawTransaction(signedTx(blockhash, alice, [transfer(alice.publicKey, 2_000_000)]))).rejects.toMatchObject({
      kind: 'preflight',
      err: 'BlockhashNotFound',
    });
  });

  it('hands what clients send (legacy and v0) to LiteSVM to verify, which refuses a bad signature and charges nothing', () => {
    const svm = configureSvm(new LiteSVM());
    const payer = Keypair.generate();
    svm.airdrop(payer.publicKey.toBase58() as never, 1_000_000_000n as never);
    for (const version of ['legacy', 0] as const) {
      const raw = signedTx(svm.latestBlockhash(), payer, [transfer(payer.publicKey, 1_000_000 + (version === 0 ? 1 : 0))], [], version);
      expect(parseTransaction(raw).canonical).toBe(true);
      const balance = svm.getBalance(payer.publicKey.toBase58() as never);
      expect(nativeSend(svm, flipped(raw, 5), version, true).toString()).toMatch(/SignatureFailure/);
      expect(svm.getBalance(payer.publicKey.toBase58() as never)).toBe(balance);
      expect(nativeSend(svm, raw, version, true).constructor.name).toBe('TransactionMetadata');
    }
  });

  it('verifies a non-canonical encoding itself, over the bytes after the signatures (trailing bytes included)', async () => {
    const raw = signedTx(ledger.getLatestBlockhash().blockhash, alice, [transfer(alice.publicKey, 1_000_000)]);
    await refusedAsSignature(Uint8Array.from([...raw, 0]), true);
  });
});
