/**
 * The InvocationContext a reference-program handler executes with. Reads see the transaction's
 * own earlier effects; writes and invokes first snapshot what they touch so a later failure can
 * restore it; invoked builtins may only be signed by outer signers or the program's own PDAs.
 */
import type { Keypair, PublicKey, TransactionInstruction } from '@solana/web3.js';
import type { LiteSVM } from 'litesvm';
import { InvokeError } from './instruction-failure.js';
import { addressOf, bytesOf, isOnCurveCached } from '@pmx/programs';
import { nestLogs, runInner, type InnerRunResult } from './inner-runner.js';
import { SYSVAR_INSTRUCTIONS_ID, SYSVAR_OWNER_ID } from './instructions-sysvar.js';
import type { InvocationContext, RuntimeAccount } from './program-runtime.js';
import { readAccount, toRuntimeAccount, writeAccount, type StoredAccount } from './svm-accounts.js';
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

  /** Per size, for this instruction: no instruction can change the Rent sysvar (a settle asks once an account it creates). */
  private readonly rents = new Map<number, bigint>();

  rentExemptMinimum(dataLength: number): bigint {
    let rent = this.rents.get(dataLength);
    if (rent === undefined) this.rents.set(dataLength, (rent = this.d.svm.minimumBalanceForRentExemption(BigInt(dataLength))));
    return rent;
  }

  /** The account's state as LiteSVM holds it now (a subclass may answer from states it keeps). */
  protected currentAccount(addr: string): StoredAccount | null {
    return readAccount(this.d.svm, addr);
  }

  writeAccount(address: PublicKey, account: { lamports: bigint; data: Buffer }): void {
    const addr = addressOf(address);
    const program = addressOf(this.d.programId);
    const current = this.currentAccount(addr);
    if (current && current.owner !== program) {
      throw new InvokeError('ExternalAccountDataModified', `refused write: ${addr} is owned by ${current.owner}, not ${program}`);
    }
    this.d.touched.touch(addr);
    writeAccount(this.d.svm, addr, { owner: program, lamports: account.lamports, data: account.data, executable: false });
  }

  /** Whether `key`, marked signer, may sign here: an outer signer, or a PDA of this program it signs for. */
  private maySign(key: PublicKey, k: string, pdas: ReadonlySet<string>): boolean {
    return this.d.signers.has(k) || (pdas.has(k) && !isOnCurveCached(bytesOf(key)));
  }

  invoke(instructions: TransactionInstruction[], pdaSigners: PublicKey[] = []): void {
    const pdas = new Set(pdaSigners.map((p) => addressOf(p)));
    for (const ix of instructions) {
      this.d.touched.touch(addressOf(ix.programId));
      for (const key of ix.keys) {
        const k = addressOf(key.pubkey);
        this.d.touched.touch(k);
        if (key.isSigner && !this.maySign(key.pubkey, k, pdas)) {
          this.d.logs.push(`Program log: ${k}'s signer privilege escalated`);
          throw new InvokeError('PrivilegeEscalation', `${k} did not sign and is not a PDA signer of this program`);
        }
      }
    }
    this.finish(runInner(this.d.svm, this.d.payer, instructions));
  }

  /**
   * `invoke` of each group in turn, run as one internal transaction when that is certain to end
   * as the runs one after the other would: every group's signers may sign, and the joined run
   * succeeds; its logs are then theirs, one after the other, and its units their sum. Only for
   * instructions whose logs do not depend on the internal transaction's compute budget (System
   * instructions: a settle's new order accounts): an SPL Token instruction logs its remaining
   * budget, which the joined run's instruction count changes. A joined run that fails changed
   * nothing (its fee is put back), and the groups then run one by one through `invoke`, which
   * ends exactly as they always did; so does a group whose signer may not sign.
   */
  invokeEach(groups: readonly { instructions: TransactionInstruction[]; pdaSigners: PublicKey[] }[]): void {
    const joinable =
      groups.length > 1 &&
      groups.every((g) => {
        const pdas = new Set(g.pdaSigners.map((p) => addressOf(p)));
        return g.instructions.every((ix) => ix.keys.every((key) => !key.isSigner || this.maySign(key.pubkey, addressOf(key.pubkey), pdas)));
      });
    if (joinable) {
      const all = groups.flatMap((g) => g.instructions);
      for (const ix of all) {
        this.d.touched.touch(addressOf(ix.programId));
        for (const key of ix.keys) this.d.touched.touch(addressOf(key.pubkey));
      }
      const result = runInner(this.d.svm, this.d.payer, all);
      if (!result.failure) return this.finish(result);
    }
    for (const g of groups) this.invoke(g.instructions, g.pdaSigners);
  }

  private finish(result: InnerRunResult): void {
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
