// The kept compute-budget run (compute-budget-run.ts): a lone SetComputeUnitLimit answered from
// its first run gives what a fresh LiteSVM run gives (logs, units), in a transaction's record
// too; a failing or other compute-budget instruction is run every time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ComputeBudgetProgram, Keypair, TransactionInstruction } from '@solana/web3.js';
import { EmbeddedLedger } from '../src/ledger.js';
import { runBuiltins } from '../src/compute-budget-run.js';
import { runInner } from '../src/inner-runner.js';
import type { InvocationContext, ProgramHandler, ProgramInstruction } from '../src/program-runtime.js';
import { signedTx } from '../src/testing/transactions.js';

const PROGRAM_ID = Keypair.generate().publicKey;

class EchoHandler implements ProgramHandler {
  readonly programId = PROGRAM_ID;
  readonly name = 'echo';
  execute(ix: ProgramInstruction, ctx: InvocationContext): void {
    ctx.log(`echo ${ix.data.toString('hex')}`);
  }
}

describe('the kept compute-budget run', () => {
  let ledger: EmbeddedLedger;
  const user = Keypair.generate();
  const svmOf = (l: EmbeddedLedger) => (l as unknown as { svm: Parameters<typeof runInner>[0] }).svm;
  const payerOf = (l: EmbeddedLedger) => (l as unknown as { keys: { ledgerFaucet: Keypair } }).keys.ledgerFaucet;
  const echo = (n: number) => new TransactionInstruction({ programId: PROGRAM_ID, keys: [], data: Buffer.from([n]) });

  beforeAll(async () => {
    ledger = await EmbeddedLedger.open({ programs: [new EchoHandler()] });
    await ledger.airdrop(user.publicKey, 1_000_000_000n);
  });
  afterAll(async () => ledger.close());

  it('answers what a fresh run answers, again and again', () => {
    const ixs = [ComputeBudgetProgram.setComputeUnitLimit({ units: 321_000 })];
    const fresh = runInner(svmOf(ledger), payerOf(ledger), ixs);
    expect(fresh.failure).toBeNull();
    for (let i = 0; i < 3; i++) expect(runBuiltins(svmOf(ledger), payerOf(ledger), ixs)).toEqual(fresh);
  });

  it('lands transactions whose records match, run or kept', async () => {
    const cb = ComputeBudgetProgram.setComputeUnitLimit({ units: 250_000 });
    const records = [];
    for (let i = 0; i < 3; i++) {
      const res = await ledger.sendRawTransaction(signedTx(ledger.getLatestBlockhash().blockhash, user, [cb, echo(i)]));
      expect(res.err).toBeNull();
      records.push(ledger.getTransaction(res.signature)!);
    }
    const budget = ComputeBudgetProgram.programId.toBase58();
    expect(records[0]!.logs.slice(0, 2)).toEqual([`Program ${budget} invoke [1]`, `Program ${budget} success`]);
    expect(records[0]!.unitsConsumed).toBeGreaterThanOrEqual(150);
    for (const r of records.slice(1)) {
      expect(r.logs.slice(0, 2)).toEqual(records[0]!.logs.slice(0, 2));
      expect(r.unitsConsumed).toBe(records[0]!.unitsConsumed);
    }
  });

  it('runs a malformed compute-budget instruction every time, with its error', async () => {
    const bad = new TransactionInstruction({ programId: ComputeBudgetProgram.programId, keys: [], data: Buffer.from([2, 1]) });
    for (let i = 0; i < 2; i++) {
      const res = await ledger.sendRawTransaction(signedTx(ledger.getLatestBlockhash().blockhash, user, [bad, echo(10 + i)]));
      expect(res.err).toEqual({ InstructionError: [0, 'InvalidInstructionData'] });
    }
  });
});
