import type { PublicKey } from '@solana/web3.js';
import type { InvocationContext, ProgramInstruction } from '../../program-runtime.js';

/** One instruction's processor; `programId` is the id the handler was registered under. */
export type Processor = (ix: ProgramInstruction, ctx: InvocationContext, programId: PublicKey) => void;
