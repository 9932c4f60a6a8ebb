/**
 * The instructions sysvar as a real cluster gives it to a program: Solana's serialized layout,
 * the current instruction's index in the last two bytes, and only to an instruction that passes
 * the account.
 */
import { Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EmbeddedLedger } from '../src/ledger.js';
import { InstructionsSysvarError, loadInstructionAt, serializeInstructionsSysvar } from '../src/instructions-sysvar.js';
import { signedTx } from '../src/testing/transactions.js';
import { PROBE_STATE, ProbeHandler, probeInstruction, readProbe, sysvarMeta } from '../src/testing/probe-program.js';

const MEMO = new PublicKey('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr');

let ledger: EmbeddedLedger;
const payer = Keypair.generate();
const other = Keypair.generate().publicKey;

beforeAll(async () => {
  ledger = await EmbeddedLedger.open({ programs: [new ProbeHandler()] });
  await ledger.airdrop(payer.publicKey, 10_000_000_000n);
});
afterAll(async () => {
  await ledger.close();
});

async function send(ixs: TransactionInstruction[]): Promise<void> {
  ledger.advanceSlots(1);
  const res = await ledger.sendRawTransaction(signedTx(ledger.getLatestBlockhash().blockhash, payer, ixs));
  expect(res.err).toBeNull();
}

/** The layout written out by hand, independently of the serializer. */
function expectedBytes(
  ixs: { programId: PublicKey; keys: { pubkey: PublicKey; isSigner: boolean; isWritable: boolean }[]; data: Buffer }[],
  current: number,
): string {
  const u16 = (n: number) => Buffer.from([n & 0xff, n >> 8]);
  const bodies = ixs.map((ix) =>
    Buffer.concat([
      u16(ix.keys.length),
      ...ix.keys.map((k) => Buffer.concat([Buffer.from([(k.isSigner ? 1 : 0) | (k.isWritable ? 2 : 0)]), k.pubkey.toBuffer()])),
      ix.programId.toBuffer(),
      u16(ix.data.length),
      ix.data,
    ]),
  );
  const offsets: Buffer[] = [];
  let at = 2 + 2 * ixs.length;
  for (const b of bodies) {
    offsets.push(u16(at));
    at += b.length;
  }
  return Buffer.concat([u16(ixs.length), ...offsets, ...bodies, u16(current)]).toString('hex');
}

describe('instructions sysvar', () => {
  it("gives a program the transaction's instructions in the real serialized format, with its own index", async () => {
    const memo = new TransactionInstruction({ programId: MEMO, keys: [], data: Buffer.from('before') });
    const probe = probeInstruction([
      { pubkey: payer.publicKey, isSigner: true, isWritable: true },
      sysvarMeta,
      { pubkey: other, isSigner: false, isWritable: false },
    ]);
    const transfer = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: other, lamports: 1_000_000 });
    await send([memo, probe, transfer]);
    const view = readProbe((k) => ledger.getAccount(k))!;
    expect(view.current).toBe(1);
    expect(view.instructions.map((i) => i.programId)).toEqual([
      MEMO.toBase58(),
      probe.programId.toBase58(),
      SystemProgram.programId.toBase58(),
    ]);
    expect(view.instructions[0]!.data).toBe(Buffer.from('before').toString('hex'));
    expect(view.instructions[1]!.keys).toEqual([
      { pubkey: payer.publicKey.toBase58(), isSigner: true, isWritable: true },
      { pubkey: sysvarMeta.pubkey.toBase58(), isSigner: false, isWritable: false },
      // Flags are the message's: `other` is writable because the transfer writes it.
      { pubkey: other.toBase58(), isSigner: false, isWritable: true },
      { pubkey: PROBE_STATE.toBase58(), isSigner: false, isWritable: true },
    ]);
    expect(view.instructions[2]!.keys.map((k) => [k.isSigner, k.isWritable])).toEqual([
      [true, true],
      [false, true],
    ]);
    const writable = new Set([payer.publicKey, other, PROBE_STATE].map((k) => k.toBase58()));
    expect(view.raw).toBe(
      expectedBytes(
        [memo, probe, transfer].map((ix) => ({
          programId: ix.programId,
          data: ix.data,
          keys: ix.keys.map((k) => ({
            pubkey: k.pubkey,
            isSigner: k.pubkey.equals(payer.publicKey),
            isWritable: writable.has(k.pubkey.toBase58()),
          })),
        })),
        1,
      ),
    );
  });

  it('is not readable by an instruction that does not pass it', async () => {
    await send([probeInstruction([{ pubkey: payer.publicKey, isSigner: true, isWritable: true }])]);
    expect(readProbe((k) => ledger.getAccount(k))).toEqual({ raw: null, current: null, instructions: [] });
  });

  it('decoders refuse what is not there', () => {
    const data = serializeInstructionsSysvar([{ programId: MEMO, keys: [], data: Buffer.from('x') }]);
    expect(loadInstructionAt(data, 0).data.toString()).toBe('x');
    expect(() => loadInstructionAt(data, 1)).toThrow(InstructionsSysvarError);
    expect(() => loadInstructionAt(data.subarray(0, 5), 0)).toThrow(InstructionsSysvarError);
  });
});
