/**
 * The embedded cluster's Ed25519 precompile applies verify_strict: each published edge-case
 * vector ("Taming the many EdDSAs", ed25519-vectors.ts) gets its expected strict verdict, through
 * the precompile's data verifier and through whole transactions on both execution paths (a
 * builtin-only transaction goes to LiteSVM, whose precompile is Agave's own code; one with a
 * reference program is verified by the embedded runtime). Plus the two forgeries of issue 25.
 */
import { Keypair, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedLedger, verifyEd25519Data } from '@pmx/local-cluster';
import { ProbeHandler, probeInstruction, signedTx, sysvarMeta } from '@pmx/local-cluster/testing';
import { createEd25519Instruction } from '@pmx/programs';
import { encodeOrderMessage, orderSigningText } from '../../src/domain/orderbook/index.js';
import { SPECCHECK_VECTORS } from '../helpers/ed25519-vectors.js';
import { IDENTITY_PUBKEY, IDENTITY_SIGNATURE, signText, zeroNonceSignature } from '../helpers/sign.js';

const hex = (h: string) => Buffer.from(h, 'hex');
const dataOf = (publicKey: Uint8Array, signature: Uint8Array, message: Uint8Array) =>
  createEd25519Instruction([{ publicKey, signature, message }]).data;

let ledger: EmbeddedLedger;
const payer = Keypair.generate();

/** The transaction's error (null when it landed). */
async function sent(ixs: TransactionInstruction[]): Promise<unknown> {
  ledger.advanceSlots(1);
  return (await ledger.sendRawTransaction(signedTx(ledger.getLatestBlockhash().blockhash, payer, ixs))).err;
}
const lands = async (ixs: TransactionInstruction[]) => (await sent(ixs)) === null;
/** Agave's refusal of a proof: PrecompileError InvalidSignature (2) on the Ed25519 instruction (index 0). */
const INVALID_SIGNATURE = { InstructionError: [0, { Custom: 2 }] };
const transfer = () => SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1_000_000 });
const probe = () => probeInstruction([{ pubkey: payer.publicKey, isSigner: true, isWritable: true }, sysvarMeta]);

beforeAll(async () => {
  ledger = await EmbeddedLedger.open({ programs: [new ProbeHandler()] });
  await ledger.airdrop(payer.publicKey, 10_000_000_000n);
});
afterAll(async () => {
  await ledger.close();
});

describe('the Ed25519 precompile against the "Taming the many EdDSAs" vectors', () => {
  for (const c of SPECCHECK_VECTORS) {
    it(`vector ${c.index} (${c.what}): ${c.strict ? 'accepted' : 'refused'}, on both paths`, async () => {
      const data = dataOf(hex(c.pubKey), hex(c.signature), hex(c.message));
      expect(verifyEd25519Data(data, [data])).toBe(c.strict ? null : 2);
      const ix = () => createEd25519Instruction([{ publicKey: hex(c.pubKey), signature: hex(c.signature), message: hex(c.message) }]);
      const expected = c.strict ? null : INVALID_SIGNATURE;
      expect(await sent([ix(), transfer()])).toEqual(expected); // LiteSVM (Agave's precompile)
      expect(await sent([ix(), probe(), transfer()])).toEqual(expected); // the embedded runtime's precompile
    });
  }
});

describe('the forgeries of issue 25 in a proof instruction', () => {
  const owner = Keypair.generate();
  const order = Buffer.from(
    orderSigningText(
      encodeOrderMessage({
        market: Keypair.generate().publicKey.toBytes(),
        owner: owner.publicKey.toBytes(),
        side: 'sell',
        outcome: 'no',
        priceBps: 4000,
        quantity: 5_000_000n,
        nonce: 9n,
        expiry: 2_000_000_000n,
      }),
    ),
  );

  it('r = 0 over a real order is InvalidSignature; the honest signature beside it passes', () => {
    const honest = dataOf(owner.publicKey.toBytes(), signText(owner, order), order);
    expect(verifyEd25519Data(honest, [honest])).toBeNull();
    const forged = dataOf(owner.publicKey.toBytes(), zeroNonceSignature(owner, order), order);
    expect(verifyEd25519Data(forged, [forged])).toBe(2);
  });

  it('the identity key with R = identity, S = 0 is InvalidSignature', async () => {
    const data = dataOf(IDENTITY_PUBKEY, IDENTITY_SIGNATURE, order);
    expect(verifyEd25519Data(data, [data])).toBe(2);
    const ix = () => createEd25519Instruction([{ publicKey: IDENTITY_PUBKEY, signature: IDENTITY_SIGNATURE, message: order }]);
    expect(await lands([ix(), transfer()])).toBe(false);
    expect(await lands([ix(), probe(), transfer()])).toBe(false);
  });
});
