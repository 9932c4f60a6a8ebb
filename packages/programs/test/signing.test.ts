/** src/solana/signing.ts: Node's Ed25519 gives the bytes web3.js gives, and refuses a non-signer. */
import { Keypair, SystemProgram, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { signTransaction } from '../src/solana/signing.js';

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
