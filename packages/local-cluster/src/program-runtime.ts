/**
 * The contract between the embedded ledger and the TypeScript reference implementations of this
 * project's own on-chain programs (the market program, later the exchange program).
 *
 * The ledger verifies every signature of a transaction itself, then executes its instructions in
 * order. Builtin programs run inside LiteSVM. An instruction addressed to a registered program id
 * is handed to its `ProgramHandler`, which validates accounts and signers as the program would,
 * writes the program's own state accounts through `ctx.writeAccount`, and performs every token
 * movement by `ctx.invoke` of real SPL Token / System / ATA instructions (program-derived
 * authorities are allowed as signers there, as `invoke_signed` would allow them on chain).
 * If any instruction throws, the ledger restores every account the transaction touched: all or
 * nothing, as on a real cluster.
 */
import type { AccountMeta, PublicKey, TransactionInstruction } from '@solana/web3.js';

export interface RuntimeAccount {
  owner: PublicKey;
  lamports: bigint;
  data: Buffer;
  executable: boolean;
}

export interface InvocationContext {
  /** The account as it stands now, inside this transaction (earlier instructions included). */
  getAccount(address: PublicKey): RuntimeAccount | null;
  /**
   * Writes a state account owned by the executing program (creates it when missing). The ledger
   * refuses writes to accounts owned by another program.
   */
  writeAccount(address: PublicKey, account: { lamports: bigint; data: Buffer }): void;
  /**
   * Executes builtin instructions now (SPL Token, System, Associated Token Account, …).
   * `pdaSigners` are program-derived addresses of the executing program that sign, as
   * `invoke_signed` would; any other signer must have signed the outer transaction.
   * Throws `ProgramError` when an inner instruction fails.
   */
  invoke(instructions: TransactionInstruction[], pdaSigners?: PublicKey[]): void;
  /**
   * `invoke` of each group in turn, with the same logs, units, effects and errors; the runtime may
   * run them as one internal transaction. Only for instructions that never log their compute
   * budget (System instructions).
   */
  invokeEach(groups: readonly { instructions: TransactionInstruction[]; pdaSigners: PublicKey[] }[]): void;
  /** The cluster clock: current slot and unix time (seconds). */
  readonly slot: bigint;
  readonly unixTimestamp: bigint;
  /** The transaction's fee payer (pays rent for accounts the program creates). */
  readonly feePayer: PublicKey;
  /**
   * The rent-exempt minimum for an account of `dataLength` bytes, from the cluster's Rent sysvar
   * (a deployed program's `Rent::get()?.minimum_balance`): the same number the ledger and
   * getMinimumBalanceForRentExemption answer, so there is no second formula to drift.
   */
  rentExemptMinimum(dataLength: number): bigint;
  log(message: string): void;
}

export interface ProgramInstruction {
  programId: PublicKey;
  /** `isSigner` is true only when the outer transaction carried a valid signature for the key. */
  keys: AccountMeta[];
  data: Buffer;
}

export interface ProgramHandler {
  readonly programId: PublicKey;
  readonly name: string;
  /** Executes one instruction; throws `ProgramError` to fail the whole transaction. */
  execute(instruction: ProgramInstruction, ctx: InvocationContext): void;
}

/**
 * A program's failure: `code` is the program's numeric error code (Anchor's custom error
 * numbering, 6000+), reported as `{"InstructionError":[index,{"Custom":code}]}` like a real
 * cluster, with `name` in the logs.
 */
export class ProgramError extends Error {
  constructor(
    readonly code: number,
    readonly errorName: string,
    message?: string,
  ) {
    super(message ?? errorName);
    this.name = 'ProgramError';
  }
}

export type { TransactionInstruction };
