/**
 * The InvocationContext a reference-program handler executes with. Reads see the transaction's
 * own earlier effects; writes and invokes first snapshot what they touch so a later failure can
 * restore it; invoked builtins may only be signed by outer signers or the program's own PDAs.
 */
import type { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { InvokeError } from './instruction-failure.js';
import { addressOf, isOnCurveCached } from '@pmx/programs';
import { nestLogs, runInner } from './inner-runner.js';
import { SYSVAR_INSTRUCTIONS_ID, SYSVAR_OWNER_ID } from './instructions-sysvar.js';
import type { InvocationContext, RuntimeAccount } from './program-runtime.js';
import { readAccount, toRuntimeAccount, writeAccount } from './svm-accounts.js';
import type { TouchedAccounts } from './touched-accounts.js';

export interface HandlerContextDeps {
  svm: LiteSVM;
  payer: Keypair;
  touched: TouchedAccounts;
  programId: PublicKey;
  signers: ReadonlySet<string>;
  slot: bigint;
  unixTimestamp: bigint;
  feePayer: PublicKey;
  logs: string[];
  /** The instructions sysvar's bytes (current index set) when the instruction passes that account. */
  instructionsSysvar?: Buffer;
  addUnits(units: number): void;
}

export class HandlerContext implements InvocationContext {
  readonly slot: bigint;
  readonly unixTimestamp: bigint;
  readonly feePayer: PublicKey;

  constructor(private readonly d: HandlerContextDeps) {
    this.slot = d.slot;
    this.unixTimestamp = d.unixTimestamp;
    this.feePayer = d.feePayer;
  }

  getAccount(address: PublicKey): RuntimeAccount | null {
    if (address.equals(SYSVAR_INSTRUCTIONS_ID)) {
      // Built per transaction, never stored: on a real cluster it is not in the accounts database either.
      const data = this.d.instructionsSysvar;
      return data ? { owner: SYSVAR_OWNER_ID, lamports: 0n, data: Buffer.from(data), executable: false } : null;
    }
    return toRuntimeAccount(readAccount(this.d.svm, addressOf(address)));
  }

  rentExemptMinimum(dataLength: number): bigint {
    return this.d.svm.minimumBalanceForRentExemption(BigInt(dataLength));
  }

  writeAccount(address: PublicKey, account: { lamports: bigint; data: Buffer }): void {
    const addr = addressOf(address);
    const program = addressOf(this.d.programId);
    const current = readAccount(this.d.svm, addr);
    if (current && current.owner !== program) {
      throw new InvokeError('ExternalAccountDataModified', `refused write: ${addr} is owned by ${current.owner}, not ${program}`);
    }
    this.d.touched.touch(addr);
    writeAccount(this.d.svm, addr, { owner: program, lamports: account.lamports, data: account.data, executable: false });
  }

  invoke(instructions: TransactionInstruction[], pdaSigners: PublicKey[] = []): void {
    const pdas = new Set(pdaSigners.map((p) => addressOf(p)));
    for (const ix of instructions) {
      this.d.touched.touch(addressOf(ix.programId));
      for (const key of ix.keys) {
        const k = addressOf(key.pubkey);
        this.d.touched.touch(k);
        if (key.isSigner && !this.d.signers.has(k) && !(pdas.has(k) && !isOnCurveCached(key.pubkey.toBytes()))) {
          this.d.logs.push(`Program log: ${k}'s signer privilege escalated`);
          throw new InvokeError('PrivilegeEscalation', `${k} did not sign and is not a PDA signer of this program`);
        }
      }
    }
    const result = runInner(this.d.svm, this.d.payer, instructions);
    this.d.logs.push(...nestLogs(result.logs, 1));
    this.d.addUnits(result.unitsConsumed);
    if (result.failure) {
      throw new InvokeError(
        result.failure.inner,
        `invoked instruction ${result.failure.index} failed: ${JSON.stringify(result.failure.inner)}`,
      );
    }
  }

  log(message: string): void {
    this.d.logs.push(`Program log: ${message}`);
  }
}
