// The settle's hand-written SPL Token and System instructions against the libraries' builders:
// same program, same keys and flags, same bytes, over edge and random amounts.
import { randomBytes } from 'node:crypto';
import { createBurnInstruction, createMintToInstruction, createTransferInstruction } from '@solana/spl-token';
import { Keypair, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  burnInstruction,
  createAccountInstruction,
  mintToInstruction,
  transferInstruction,
} from '../../src/programs/exchange/cpi-instructions.js';

const key = () => Keypair.generate().publicKey;
const shape = (ix: TransactionInstruction) => ({
  programId: ix.programId.toBase58(),
  keys: ix.keys.map((k) => [k.pubkey.toBase58(), k.isSigner, k.isWritable]),
  data: Buffer.from(ix.data).toString('hex'),
});
const amounts = [0n, 1n, 255n, 2n ** 32n, 2n ** 63n, 2n ** 64n - 1n, ...Array.from({ length: 20 }, () => randomBytes(8).readBigUInt64LE())];

describe('settle CPI instructions', () => {
  it('SPL Token transfer, mint-to and burn match @solana/spl-token', () => {
    for (const amount of amounts) {
      const [a, b, c] = [key(), key(), key()];
      expect(shape(transferInstruction(a, b, c, amount))).toEqual(shape(createTransferInstruction(a, b, c, amount)));
      expect(shape(mintToInstruction(a, b, c, amount))).toEqual(shape(createMintToInstruction(a, b, c, amount)));
      expect(shape(burnInstruction(a, b, c, amount))).toEqual(shape(createBurnInstruction(a, b, c, amount)));
    }
  });

  it('System createAccount matches web3.js', () => {
    for (const [lamports, space] of [
      [0, 0],
      [890_880, 0],
      [1_844_160, 137],
      [Number.MAX_SAFE_INTEGER, 10 * 1024 * 1024],
      [randomBytes(4).readUInt32LE(), randomBytes(2).readUInt16LE()],
    ] as const) {
      const p = { fromPubkey: key(), newAccountPubkey: key(), lamports, space, programId: key() };
      expect(shape(createAccountInstruction(p))).toEqual(shape(SystemProgram.createAccount(p)));
    }
  });
});
