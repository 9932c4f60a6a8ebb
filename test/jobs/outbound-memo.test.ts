/**
 * How an outbound transaction names its row (src/services/outbound/outbound-memo.ts): a memo
 * instruction, or the row id's 16 bytes in a builder's own instruction (the settle tag). The
 * sender refuses bytes that name it neither way.
 */
import { randomUUID } from 'node:crypto';
import { Keypair, SystemProgram, TransactionInstruction, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import { encodeSettleData, EXCHANGE_PROGRAM_ID } from '@pmx/programs';
import { namesOutbound, outboundMemoInstruction, outboundTag } from '../../src/services/outbound/outbound-memo.js';

const payer = Keypair.generate();
const wire = (...extra: TransactionInstruction[]) => {
  const transfer = SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: Keypair.generate().publicKey, lamports: 1 });
  const message = new TransactionMessage({
    payerKey: payer.publicKey,
    recentBlockhash: Keypair.generate().publicKey.toBase58(),
    instructions: [transfer, ...extra],
  }).compileToV0Message();
  return new VersionedTransaction(message).serialize();
};

describe('outbound row names', () => {
  it("a tag is the UUID's 16 bytes, in order", () => {
    expect(Buffer.from(outboundTag('00112233-4455-6677-8899-aabbccddeeff')).toString('hex')).toBe('00112233445566778899aabbccddeeff');
    expect(() => outboundTag('not-a-uuid')).toThrow(RangeError);
  });

  it("bytes name their row by its memo or by its tag in an instruction's data, and no other row", () => {
    const id = randomUUID();
    expect(namesOutbound(wire(outboundMemoInstruction(id)), id)).toBe(true);
    const settleData = encodeSettleData({ tag: outboundTag(id), orders: [], fills: [] });
    const tagged = wire(new TransactionInstruction({ programId: EXCHANGE_PROGRAM_ID, keys: [], data: settleData }));
    expect(namesOutbound(tagged, id)).toBe(true);
    expect(namesOutbound(tagged, randomUUID())).toBe(false);
    expect(namesOutbound(wire(), id)).toBe(false);
  });
});
