/**
 * The exchange program's failures (ProgramError with its code and name) and the account/data
 * checks every processor makes before it trusts an input (../guard.ts).
 */
import type { AccountMeta } from '@solana/web3.js';
import { AccountSlots, decodeOrFail, failWith, type Fail } from '../guard.js';
import { EXCHANGE_ERRORS, type ExchangeErrorName } from '@pmx/programs';

export const fail: Fail<ExchangeErrorName> = failWith(EXCHANGE_ERRORS);

/** Decodes instruction data; malformed bytes answer InstructionDidNotDeserialize. */
export function decodeArgs<T>(decode: () => T): T {
  return decodeOrFail(fail, decode);
}

/** The instruction's accounts by position, with the signer/writable flags each must carry. */
export class Accounts extends AccountSlots<ExchangeErrorName> {
  constructor(keys: readonly AccountMeta[], names: readonly string[]) {
    super(keys, names, fail);
  }
}
