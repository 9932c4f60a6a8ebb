// `invokeEach` (handler-context.ts): groups of System instructions run as one internal
// transaction when that ends as running them one by one would. Two ledgers run the same
// transactions, one handler invoking each group in turn, the other through invokeEach; every
// outcome (error, logs, units, fee, accounts) must be the same, on success and on every failure
// the joined run falls back from: an address already in use, a payer short of lamports, a
// signer that may not sign.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Keypair, PublicKey, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { EmbeddedLedger } from '../src/ledger.js';
import type { InvocationContext, ProgramHandler, ProgramInstruction } from '../src/program-runtime.js';
import { signedTx } from '../src/testing/transactions.js';

const PROGRAM_ID = Keypair.generate().publicKey;
const STRANGER = Keypair.generate().publicKey; // on the curve, never signs
const pda = (seed: number) => PublicKey.findProgramAddressSync([Buffer.from('acct'), Buffer.from([seed])], PROGRAM_ID)[0];
const HUGE = 1_000_000_000_000_000;

/** data: one byte a group: a seed (an account of 64 bytes at its PDA); ≥ 200 asks HUGE lamports; 255 creates STRANGER. */
class Creator implements ProgramHandler {
  readonly programId = PROGRAM_ID;
  readonly name = 'creator';
  constructor(private readonly joined: boolean) {}
  execute(ix: ProgramInstruction, ctx: InvocationContext): void {
    const payer = ix.keys[0]!.pubkey;
    const groups = [...ix.data].map((seed) => {
      const address = seed === 255 ? STRANGER : pda(seed);
      const lamports = seed >= 200 && seed !== 255 ? HUGE : Number(ctx.rentExemptMinimum(64));
      const create = SystemProgram.createAccount({
        fromPubkey: payer,
        newAccountPubkey: address,
        lamports,
        space: 64,
        programId: PROGRAM_ID,
      });
      return { instructions: [create], pdaSigners: [address] };
    });
    ctx.log(`creating ${groups.length}`);
    if (this.joined) ctx.invokeEach(groups);
    else for (const g of groups) ctx.invoke(g.instructions, g.pdaSigners);
    ctx.log('created');
  }
}

describe('invokeEach', () => {
  const user = Keypair.generate();
  let one: EmbeddedLedger;
  let joined: EmbeddedLedger;
  let internalRuns = 0;

  beforeAll(async () => {
    one = await EmbeddedLedger.open({ programs: [new Creator(false)] });
    joined = await EmbeddedLedger.open({ programs: [new Creator(true)] });
    for (const l of [one, joined]) await l.airdrop(user.publicKey, 10_000_000_000n);
    // Internal LiteSVM transactions counted where they reach the runtime (inner-runner.ts sends legacy messages).
    const native = (joined as unknown as { svm: { inner: { sendLegacyTransaction(raw: Uint8Array): unknown } } }).svm.inner;
    const send = native.sendLegacyTransaction.bind(native);
    native.sendLegacyTransaction = (raw) => (internalRuns++, send(raw));
  });
  afterAll(async () => {
    await one.close();
    await joined.close();
  });

  async function outcome(ledger: EmbeddedLedger, seeds: number[]) {
    const ix = new TransactionInstruction({
      programId: PROGRAM_ID,
      keys: [
        { pubkey: user.publicKey, isSigner: true, isWritable: true },
        ...seeds.map((s) => ({ pubkey: s === 255 ? STRANGER : pda(s), isSigner: false, isWritable: true })),
        { pubkey: SystemProgram.programId, isSigner: false, isWritable: false },
      ],
      data: Buffer.from(seeds),
    });
    const res = await ledger.sendRawTransaction(signedTx(ledger.getLatestBlockhash().blockhash, user, [ix]));
    const rec = ledger.getTransaction(res.signature)!;
    const accounts = [user.publicKey, ...seeds.map((s) => (s === 255 ? STRANGER : pda(s)))].map((k) => {
      const a = ledger.getAccount(k);
      return a && { owner: a.owner.toBase58(), lamports: a.lamports.toString(), data: a.data.toString('hex') };
    });
    return { err: res.err, logs: rec.logs, units: rec.unitsConsumed, fee: rec.fee, accounts };
  }

  const cases: [string, number[]][] = [
    ['two new accounts', [1, 2]],
    ['three new accounts', [3, 4, 5]],
    ['the second already in use', [6, 1]],
    ['the first already in use', [2, 7]],
    ['the payer short of lamports for the second', [8, 200]],
    ['a signer that may not sign, second', [9, 255]],
    ['a signer that may not sign, first', [255, 10]],
    ['one account', [11]],
  ];
  for (const [name, seeds] of cases) {
    it(`ends as one run a group would: ${name}`, async () => {
      const a = await outcome(one, seeds);
      const b = await outcome(joined, seeds);
      expect(b).toEqual(a);
    });
  }

  it('runs the successful groups as one internal transaction (their logs, in order)', async () => {
    const before = internalRuns;
    const b = await outcome(joined, [12, 13]);
    expect(internalRuns - before).toBe(1);
    expect(b.err).toBeNull();
    const system = `Program ${SystemProgram.programId.toBase58()}`;
    expect(b.logs.filter((l) => l.startsWith(system))).toEqual([
      `${system} invoke [2]`,
      `${system} success`,
      `${system} invoke [2]`,
      `${system} success`,
    ]);
  });
});
