/**
 * Ed25519-program instructions are verified as a real node verifies them, before anything
 * executes, on both execution paths (a builtin-only transaction goes to LiteSVM whole; one
 * that addresses a reference program runs in pieces): a forged signature fails the whole
 * transaction with the precompile's error and changes nothing but the fee. Verification is
 * strict (small-order keys cannot "sign"), offsets may point into other instructions, and a
 * transaction over the account-lock or packet limit is refused as a node refuses it.
 */
import { createPrivateKey, sign } from 'node:crypto';
import {
  AddressLookupTableAccount,
  AddressLookupTableProgram,
  Keypair,
  PublicKey,
  SystemProgram,
  TransactionInstruction,
  TransactionMessage,
  VersionedTransaction,
} from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEd25519Instruction, ED25519_PROGRAM_ID, findProgramAddressCached } from '@pmx/programs';
import { EmbeddedLedger } from '../src/ledger.js';
import { verifyEd25519 } from '../src/signature-verifier.js';
import { signedTx } from '../src/testing/transactions.js';
import { PROBE_STATE, ProbeHandler, probeInstruction, sysvarMeta } from '../src/testing/probe-program.js';

let ledger: EmbeddedLedger;
const payer = Keypair.generate();
const signer = Keypair.generate();
const recipient = Keypair.generate().publicKey;

function ed25519Sign(kp: Keypair, message: Uint8Array): Buffer {
  const der = Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), kp.secretKey.subarray(0, 32)]);
  return sign(null, message, createPrivateKey({ key: der, format: 'der', type: 'pkcs8' }));
}

function entry(message: Buffer, forge = false) {
  const signature = ed25519Sign(signer, message);
  if (forge) signature[10]! ^= 1;
  return { publicKey: signer.publicKey.toBytes(), signature, message };
}

const transfer = () => SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: recipient, lamports: 5_000_000 });
const probe = () => probeInstruction([{ pubkey: payer.publicKey, isSigner: true, isWritable: true }, sysvarMeta]);

async function send(ixs: TransactionInstruction[]) {
  ledger.advanceSlots(1);
  return ledger.sendRawTransaction(signedTx(ledger.getLatestBlockhash().blockhash, payer, ixs));
}

/**
 * Sends and checks the failure changed nothing but the payer's fee: 5000 lamports per signature,
 * the precompile's signatures included (as Agave charges them).
 */
async function refused(ixs: TransactionInstruction[], err: unknown): Promise<void> {
  const signatures = 1 + ixs.filter((ix) => ix.programId.equals(ED25519_PROGRAM_ID)).reduce((n, ix) => n + ix.data[0]!, 0);
  const before = {
    payer: ledger.getBalance(payer.publicKey),
    recipient: ledger.getBalance(recipient),
    probe: ledger.getAccount(PROBE_STATE),
  };
  const res = await send(ixs);
  expect(res.err).toEqual(err);
  expect(ledger.getBalance(recipient)).toBe(before.recipient);
  expect(ledger.getAccount(PROBE_STATE)).toEqual(before.probe);
  expect(ledger.getBalance(payer.publicKey)).toBe(before.payer - 5000n * BigInt(signatures));
}

beforeAll(async () => {
  ledger = await EmbeddedLedger.open({ programs: [new ProbeHandler()] });
  await ledger.airdrop(payer.publicKey, 10_000_000_000n);
});
afterAll(async () => {
  await ledger.close();
});

describe('Ed25519 precompile', () => {
  it('a valid signature lets the transaction run, on both paths', async () => {
    expect((await send([createEd25519Instruction([entry(Buffer.from('hello'))]), transfer()])).err).toBeNull();
    expect(
      (await send([createEd25519Instruction([entry(Buffer.from('hello')), entry(Buffer.from('again'))]), probe(), transfer()])).err,
    ).toBeNull();
    expect(ledger.getAccount(PROBE_STATE)).not.toBeNull();
  });

  it('a forged signature fails the whole transaction with InvalidSignature, builtin-only path', async () => {
    await refused([createEd25519Instruction([entry(Buffer.from('pay me'), true)]), transfer()], { InstructionError: [0, { Custom: 2 }] });
  });

  it('a forged signature fails the whole transaction with InvalidSignature, reference-program path (nothing executes)', async () => {
    await refused([transfer(), createEd25519Instruction([entry(Buffer.from('ok')), entry(Buffer.from('pay me'), true)]), probe()], {
      InstructionError: [1, { Custom: 2 }],
    });
  });

  it('offsets may point into another instruction of the transaction (resolved against the whole transaction)', async () => {
    const message = Buffer.from('signed text carried by the probe instruction');
    const signature = ed25519Sign(signer, message);
    // Entry at offset 16: pubkey and signature inline, message inside instruction 1 (the probe's data).
    const cross = (sig: Buffer, msgIx: number) => {
      const data = Buffer.alloc(16 + 32 + 64);
      data[0] = 1;
      [16 + 32, 0xffff, 16, 0xffff, 0, message.length, msgIx].forEach((v, k) => data.writeUInt16LE(v, 2 + 2 * k));
      signer.publicKey.toBuffer().copy(data, 16);
      sig.copy(data, 48);
      return new TransactionInstruction({ programId: ED25519_PROGRAM_ID, keys: [], data });
    };
    const probeWith = () => probeInstruction([{ pubkey: payer.publicKey, isSigner: true, isWritable: true }, sysvarMeta], message);
    expect((await send([cross(signature, 1), probeWith()])).err).toBeNull();
    const forged = Buffer.from(signature);
    forged[3]! ^= 1;
    await refused([cross(forged, 1), probeWith(), transfer()], { InstructionError: [0, { Custom: 2 }] });
    // An instruction index the transaction does not have: InvalidDataOffsets.
    await refused([cross(signature, 7), probeWith(), transfer()], { InstructionError: [0, { Custom: 3 }] });
  });

  it('a public key off the curve is refused with InvalidPublicKey on both paths, the second time too (curve checks are remembered)', async () => {
    const pda = findProgramAddressCached([Buffer.from('not a key')], ED25519_PROGRAM_ID)[0]; // entered as off the curve when derived
    let offCurve = Keypair.generate().publicKey.toBytes();
    while (PublicKey.isOnCurve(offCurve))
      offCurve = Keypair.generate()
        .publicKey.toBytes()
        .map((b, i) => (i === 31 ? b ^ 0x55 : b));
    for (const key of [pda.toBytes(), offCurve, pda.toBytes(), offCurve]) {
      const bad = createEd25519Instruction([
        { publicKey: key, signature: ed25519Sign(signer, Buffer.from('x')), message: Buffer.from('x') },
      ]);
      await refused([bad, transfer()], { InstructionError: [0, { Custom: 0 }] });
      await refused([bad, probe(), transfer()], { InstructionError: [0, { Custom: 0 }] }); // the embedded runtime's own precompile
    }
    // A key on the curve, remembered as such, still has its signature checked.
    await refused([createEd25519Instruction([entry(Buffer.from('pay me'), true)]), probe(), transfer()], {
      InstructionError: [0, { Custom: 2 }],
    });
  });

  it('is strict: a small-order key with R = identity, S = 0 "signs" nothing', async () => {
    const identity = Buffer.alloc(32);
    identity[0] = 1;
    const sig = Buffer.alloc(64);
    sig[0] = 1;
    expect(verifyEd25519(Buffer.from('anything'), sig, identity)).toBe(false);
    const forged = createEd25519Instruction([{ publicKey: identity, signature: sig, message: Buffer.from('anything') }]);
    await refused([forged, transfer()], { InstructionError: [0, { Custom: 2 }] });
    await refused([forged, probe(), transfer()], { InstructionError: [0, { Custom: 2 }] });
  });

  it('a transaction "signed" by a small-order key is refused at ingress', async () => {
    const identity = new PublicKey(Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]));
    const message = new TransactionMessage({
      payerKey: identity,
      recentBlockhash: ledger.getLatestBlockhash().blockhash,
      instructions: [SystemProgram.transfer({ fromPubkey: identity, toPubkey: recipient, lamports: 1 })],
    }).compileToV0Message();
    const sig = Buffer.alloc(64);
    sig[0] = 1;
    const tx = new VersionedTransaction(message, [sig]);
    await expect(ledger.sendRawTransaction(tx.serialize())).rejects.toMatchObject({ kind: 'signature' });
  });

  it('refuses more than 64 accounts (TooManyAccountLocks) on the reference-program path too, and more than 1232 bytes', async () => {
    const [create, table] = AddressLookupTableProgram.createLookupTable({
      authority: payer.publicKey,
      payer: payer.publicKey,
      recentSlot: BigInt(ledger.slot) - 1n,
    });
    expect((await send([create])).err).toBeNull();
    const keys = Array.from({ length: 62 }, () => Keypair.generate().publicKey);
    for (let i = 0; i < keys.length; i += 25) {
      expect(
        (
          await send([
            AddressLookupTableProgram.extendLookupTable({
              lookupTable: table,
              authority: payer.publicKey,
              payer: payer.publicKey,
              addresses: keys.slice(i, i + 25),
            }),
          ])
        ).err,
      ).toBeNull();
    }
    ledger.advanceSlots(1);
    const alt = new AddressLookupTableAccount({ key: table, state: AddressLookupTableAccount.deserialize(ledger.getAccount(table)!.data) });
    const build = (n: number) => {
      const ix = probe();
      ix.keys.push(...keys.slice(0, n).map((pubkey) => ({ pubkey, isSigner: false, isWritable: false })));
      const msg = new TransactionMessage({
        payerKey: payer.publicKey,
        recentBlockhash: ledger.getLatestBlockhash().blockhash,
        instructions: [ix],
      }).compileToV0Message([alt]);
      const tx = new VersionedTransaction(msg);
      tx.sign([payer]);
      return tx.serialize();
    };
    // payer, probe program, probe state, sysvar + n: 60 keys make 64 accounts, 61 make 65.
    expect((await ledger.sendRawTransaction(build(60))).err).toBeNull();
    await expect(ledger.sendRawTransaction(build(61))).rejects.toThrow(/TooManyAccountLocks/);
    await expect(ledger.sendRawTransaction(new Uint8Array(1233))).rejects.toThrow(/too large: 1233 bytes/);
  });
});
