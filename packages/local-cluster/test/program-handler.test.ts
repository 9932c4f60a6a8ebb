// The reference-program runtime: a tiny "vault" program written against ProgramHandler, whose
// PDA owns a USDC account. Checks signer flags, state writes, invoke with a PDA signer, log shape
// and all-or-nothing across handler and builtin instructions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import {
  createAssociatedTokenAccountIdempotentInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
} from '@solana/spl-token';
import { EmbeddedLedger } from '../src/ledger.js';
import { ProgramError, type InvocationContext, type ProgramHandler, type ProgramInstruction } from '../src/program-runtime.js';
import { signedTx } from '../src/testing/transactions.js';

const PROGRAM_ID = Keypair.generate().publicKey;
const [vaultAuthority] = PublicKey.findProgramAddressSync([Buffer.from('vault')], PROGRAM_ID);
const [counter] = PublicKey.findProgramAddressSync([Buffer.from('counter')], PROGRAM_ID);

// data[0] = 0: count (requires signer keys[0]); 1: withdraw u64 from vault (keys: user, vaultAta, userAta, mint); 2: fail with 6001
class VaultHandler implements ProgramHandler {
  readonly programId = PROGRAM_ID;
  readonly name = 'vault';
  execute(ix: ProgramInstruction, ctx: InvocationContext): void {
    const op = ix.data[0];
    if (!ix.keys[0]?.isSigner) throw new ProgramError(6000, 'Unauthorized', 'user must sign');
    if (op === 0) {
      const prev = ctx.getAccount(counter)?.data.readBigUInt64LE(0) ?? 0n;
      const data = Buffer.alloc(8);
      data.writeBigUInt64LE(prev + 1n);
      ctx.writeAccount(counter, { lamports: 1_000_000n, data });
      ctx.log(`count=${prev + 1n}`);
    } else if (op === 1) {
      const amount = ix.data.readBigUInt64LE(1);
      ctx.invoke([createTransferInstruction(ix.keys[1]!.pubkey, ix.keys[2]!.pubkey, vaultAuthority, amount)], [vaultAuthority]);
    } else if (op === 2) {
      throw new ProgramError(6001, 'MarketClosed', 'market is closed');
    } else if (op === 3) {
      // Tries to move the user's tokens without the user's signature: must be refused.
      ctx.invoke([createTransferInstruction(ix.keys[2]!.pubkey, ix.keys[1]!.pubkey, ix.keys[3]!.pubkey, 1n)]);
    }
  }
}

describe('ProgramHandler runtime', () => {
  let ledger: EmbeddedLedger;
  const user = Keypair.generate();
  let mint: PublicKey;
  let vaultAta: PublicKey;
  let userAta: PublicKey;
  const ix = (data: Buffer, signer = true, extra: PublicKey[] = []) =>
    new TransactionInstruction({
      programId: PROGRAM_ID,
      keys: [
        { pubkey: user.publicKey, isSigner: signer, isWritable: true },
        { pubkey: vaultAta, isSigner: false, isWritable: true },
        { pubkey: userAta, isSigner: false, isWritable: true },
        ...extra.map((pubkey) => ({ pubkey, isSigner: false, isWritable: false })),
      ],
      data,
    });
  const withdraw = (amount: bigint) => {
    const d = Buffer.alloc(9);
    d[0] = 1;
    d.writeBigUInt64LE(amount, 1);
    return ix(d);
  };
  const send = (ixs: TransactionInstruction[]) => ledger.sendRawTransaction(signedTx(ledger.getLatestBlockhash().blockhash, user, ixs));

  beforeAll(async () => {
    ledger = await EmbeddedLedger.open({ programs: [new VaultHandler()] });
    mint = new PublicKey(ledger.bootstrapInfo.usdcMint);
    vaultAta = getAssociatedTokenAddressSync(mint, vaultAuthority, true);
    userAta = getAssociatedTokenAddressSync(mint, user.publicKey);
    await ledger.airdrop(user.publicKey, 1_000_000_000n);
    await ledger.mintUsdc(vaultAuthority, 100n);
    await ledger.mintUsdc(user.publicKey, 5n);
  });
  afterAll(async () => ledger.close());

  it('writes program state and logs like a cluster', async () => {
    const res = await send([ix(Buffer.from([0])), ix(Buffer.from([0]))]);
    expect(res.err).toBeNull();
    const acc = ledger.getAccount(counter)!;
    expect(acc.owner.equals(PROGRAM_ID)).toBe(true);
    expect(acc.data.readBigUInt64LE(0)).toBe(2n);
    const logs = ledger.getTransaction(res.signature)!.logs;
    expect(logs).toContain(`Program ${PROGRAM_ID.toBase58()} invoke [1]`);
    expect(logs).toContain('Program log: count=2');
    expect(logs.at(-1)).toBe(`Program ${PROGRAM_ID.toBase58()} success`);
  });

  it('invokes SPL Token with a PDA signer, charging one fee', async () => {
    const sol = ledger.getBalance(user.publicKey);
    const res = await send([withdraw(30n)]);
    expect(res.err).toBeNull();
    expect(ledger.getTokenBalance(vaultAta)).toBe(70n);
    expect(ledger.getTokenBalance(userAta)).toBe(35n);
    expect(ledger.getBalance(user.publicKey)).toBe(sol - 5000n);
    expect(ledger.getTransaction(res.signature)!.logs).toContain('Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [2]');
  });

  it('reports isSigner false for a key that did not sign', async () => {
    const payer = Keypair.generate();
    await ledger.airdrop(payer.publicKey, 10_000_000n);
    const raw = signedTx(ledger.getLatestBlockhash().blockhash, payer, [ix(Buffer.from([0]), false)]);
    const res = await ledger.sendRawTransaction(raw);
    expect(res.err).toEqual({ InstructionError: [0, { Custom: 6000 }] });
  });

  it('undoes builtin and handler effects when a later instruction fails', async () => {
    const other = Keypair.generate().publicKey;
    const otherAta = getAssociatedTokenAddressSync(mint, other);
    const before = {
      vault: ledger.getTokenBalance(vaultAta),
      user: ledger.getTokenBalance(userAta),
      count: ledger.getAccount(counter)!.data.readBigUInt64LE(0),
      sol: ledger.getBalance(user.publicKey),
    };
    const res = await send([
      createAssociatedTokenAccountIdempotentInstruction(user.publicKey, otherAta, other, mint),
      createTransferInstruction(userAta, otherAta, user.publicKey, 3n),
      ix(Buffer.from([0])),
      withdraw(10n),
      ix(Buffer.from([2])),
    ]);
    expect(res.err).toEqual({ InstructionError: [4, { Custom: 6001 }] });
    expect(ledger.getAccount(otherAta)).toBeNull();
    expect(ledger.getTokenBalance(vaultAta)).toBe(before.vault);
    expect(ledger.getTokenBalance(userAta)).toBe(before.user);
    expect(ledger.getAccount(counter)!.data.readBigUInt64LE(0)).toBe(before.count);
    expect(ledger.getBalance(user.publicKey)).toBe(before.sol - 5000n);
    expect(ledger.getTransaction(res.signature)!.logs).toContain(
      'Program log: AnchorError occurred. Error Code: MarketClosed. Error Number: 6001. Error Message: market is closed.',
    );
  });

  it('surfaces an invoked token error as the outer instruction error', async () => {
    const res = await send([withdraw(1_000n)]);
    expect(res.err).toEqual({ InstructionError: [0, { Custom: 1 }] });
  });

  it('refuses an invoke signed by neither the transaction nor a PDA', async () => {
    const victim = Keypair.generate().publicKey;
    const res = await send([ix(Buffer.from([3]), true, [victim])]);
    expect(res.err).toEqual({ InstructionError: [0, 'PrivilegeEscalation'] });
  });
});
