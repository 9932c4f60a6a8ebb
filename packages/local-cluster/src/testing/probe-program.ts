/**
 * A reference program for runtime tests: it records what it sees of the instructions sysvar
 * (raw bytes, current index, every decoded instruction) into its state account, so a test can
 * read exactly what a deployed program would have read.
 */
import { Keypair, PublicKey, SYSVAR_INSTRUCTIONS_PUBKEY, TransactionInstruction, type AccountMeta } from '@solana/web3.js';
import { loadCurrentIndex, loadInstructionAt, loadInstructionCount } from '../instructions-sysvar.js';
import type { InvocationContext, ProgramHandler, ProgramInstruction } from '../program-runtime.js';

export const PROBE_ID = Keypair.generate().publicKey;
export const [PROBE_STATE] = PublicKey.findProgramAddressSync([Buffer.from('probe')], PROBE_ID);

export interface ProbeView {
  raw: string | null;
  current: number | null;
  instructions: { programId: string; keys: { pubkey: string; isSigner: boolean; isWritable: boolean }[]; data: string }[];
}

export class ProbeHandler implements ProgramHandler {
  readonly programId = PROBE_ID;
  readonly name = 'probe';
  execute(_ix: ProgramInstruction, ctx: InvocationContext): void {
    const sysvar = ctx.getAccount(SYSVAR_INSTRUCTIONS_PUBKEY);
    const view: ProbeView = { raw: null, current: null, instructions: [] };
    if (sysvar) {
      view.raw = sysvar.data.toString('hex');
      view.current = loadCurrentIndex(sysvar.data);
      for (let i = 0; i < loadInstructionCount(sysvar.data); i++) {
        const ix = loadInstructionAt(sysvar.data, i);
        view.instructions.push({
          programId: ix.programId.toBase58(),
          keys: ix.keys.map((k) => ({ pubkey: k.pubkey.toBase58(), isSigner: k.isSigner, isWritable: k.isWritable })),
          data: Buffer.from(ix.data).toString('hex'),
        });
      }
    }
    ctx.writeAccount(PROBE_STATE, { lamports: 10_000_000n, data: Buffer.from(JSON.stringify(view)) });
  }
}

export function probeInstruction(keys: AccountMeta[], data: Buffer = Buffer.from('probe')): TransactionInstruction {
  return new TransactionInstruction({
    programId: PROBE_ID,
    keys: [...keys, { pubkey: PROBE_STATE, isSigner: false, isWritable: true }],
    data,
  });
}

export function readProbe(getAccount: (k: PublicKey) => { data: Uint8Array } | null): ProbeView | null {
  const acc = getAccount(PROBE_STATE);
  return acc ? (JSON.parse(Buffer.from(acc.data).toString()) as ProbeView) : null;
}

export const sysvarMeta: AccountMeta = { pubkey: SYSVAR_INSTRUCTIONS_PUBKEY, isSigner: false, isWritable: false };
