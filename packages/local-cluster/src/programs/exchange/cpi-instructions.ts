/**
 * The SPL Token and System instructions a settle invokes, written directly: the same keys and
 * bytes as @solana/spl-token's `createTransferInstruction` / `createMintToInstruction` /
 * `createBurnInstruction` and web3.js's `SystemProgram.createAccount`, which encode through
 * buffer-layout (about 4 % of a settle transaction in the ledger, issue 31, thirteenth pass).
 * test/exchange/cpi-instructions.test.ts compares them with those builders.
 */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, TransactionInstruction, type PublicKey } from '@solana/web3.js';
import { bytesOf } from '@pmx/programs';

const TRANSFER = 3;
const MINT_TO = 7;
const BURN = 8;
const CREATE_ACCOUNT = 0;

function amountData(tag: number, amount: bigint): Buffer {
  const data = Buffer.alloc(9);
  data[0] = tag;
  data.writeBigUInt64LE(amount, 1);
  return data;
}

function tokenInstruction(tag: number, a: PublicKey, b: PublicKey, signer: PublicKey, amount: bigint): TransactionInstruction {
  return new TransactionInstruction({
    programId: TOKEN_PROGRAM_ID,
    keys: [
      { pubkey: a, isSigner: false, isWritable: true },
      { pubkey: b, isSigner: false, isWritable: true },
      { pubkey: signer, isSigner: true, isWritable: false },
    ],
    data: amountData(tag, amount),
  });
}

export function transferInstruction(source: PublicKey, destination: PublicKey, owner: PublicKey, amount: bigint): TransactionInstruction {
  return tokenInstruction(TRANSFER, source, destination, owner, amount);
}

export function mintToInstruction(mint: PublicKey, destination: PublicKey, authority: PublicKey, amount: bigint): TransactionInstruction {
  return tokenInstruction(MINT_TO, mint, destination, authority, amount);
}

export function burnInstruction(account: PublicKey, mint: PublicKey, owner: PublicKey, amount: bigint): TransactionInstruction {
  return tokenInstruction(BURN, account, mint, owner, amount);
}

/** System `CreateAccount`; `lamports` is checked as web3.js's builder checks it (a safe integer). */
export function createAccountInstruction(p: {
  fromPubkey: PublicKey;
  newAccountPubkey: PublicKey;
  lamports: number;
  space: number;
  programId: PublicKey;
}): TransactionInstruction {
  const data = Buffer.alloc(52);
  data.writeUInt32LE(CREATE_ACCOUNT, 0);
  data.writeBigInt64LE(BigInt(p.lamports), 4);
  data.writeBigUInt64LE(BigInt(p.space), 12);
  bytesOf(p.programId).copy(data, 20); // the key's bytes kept per object (toBuffer runs bn.js)
  return new TransactionInstruction({
    programId: SystemProgram.programId,
    keys: [
      { pubkey: p.fromPubkey, isSigner: true, isWritable: true },
      { pubkey: p.newAccountPubkey, isSigner: true, isWritable: true },
    ],
    data,
  });
}
