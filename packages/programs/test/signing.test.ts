/** src/solana/signing.ts: Node's Ed25519 gives the bytes web3.js gives, and refuses a non-signer. */
import { Keypair, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { signAndSerialize, signTransaction } from '../src/solana/signing.js';

const transfer = (from: Keypair, co: Keypair) =>
  new VersionedTransaction(
    new TransactionMessage({
      payerKey: from.publicKey,
      recentBlockhash: Keypair.generate().publicKey.toBase58(),
      instructions: [SystemProgram.transfer({ fromPubkey: co.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 5 })],
    }).compileToV0Message(),
  );

describe('signTransaction', () => {
  it('signs exactly as web3.js does, for every signer, again and again', () => {
    const [payer, co] = [Keypair.generate(), Keypair.generate()];
    for (let i = 0; i < 3; i++) {
      const ours = transfer(payer, co);
      const theirs = new VersionedTransaction(ours.message);
      signTransaction(ours, [payer, co]);
      theirs.sign([payer, co]);
      expect(Buffer.from(ours.serialize()).equals(Buffer.from(theirs.serialize()))).toBe(true);
    }
  });

  it('refuses a key that is not among the signers', () => {
    expect(() => signTransaction(transfer(Keypair.generate(), Keypair.generate()), [Keypair.generate()])).toThrow();
  });
});

describe('signAndSerialize', () => {
  it('gives the bytes web3.js signs and serializes, for one signer or several, and keeps the signatures', () => {
    const [payer, co] = [Keypair.generate(), Keypair.generate()];
    for (const signers of [
      [payer, co],
      [co, payer],
    ]) {
      const ours = transfer(payer, co);
      const theirs = new VersionedTransaction(ours.message);
      const raw = signAndSerialize(ours, signers);
      theirs.sign([payer, co]);
      expect(Buffer.from(raw).equals(Buffer.from(theirs.serialize()))).toBe(true);
      expect(Buffer.from(ours.serialize()).equals(Buffer.from(raw))).toBe(true);
    }
    // A partly signed transaction: the missing signature stays zeros, as web3.js writes it.
    const partly = transfer(payer, co);
    const theirs = new VersionedTransaction(partly.message);
    theirs.sign([co]);
    expect(Buffer.from(signAndSerialize(partly, [co])).equals(Buffer.from(theirs.serialize()))).toBe(true);
  });

  it('refuses a key that is not among the signers, naming it', () => {
    const stranger = Keypair.generate();
    expect(() => signAndSerialize(transfer(Keypair.generate(), Keypair.generate()), [stranger])).toThrow(stranger.publicKey.toBase58());
  });
});
