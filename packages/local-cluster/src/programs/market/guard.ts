/**
 * The market program's failures (ProgramError with its Anchor-numbered code and name) and the
 * account/data checks every processor makes before it trusts an input (../guard.ts).
 */
import type { AccountMeta } from '@solana/web3.js';
import { AmmError, MARKET_ERRORS, type MarketErrorName } from '@pmx/programs';
import { AccountSlots, decodeOrFail, failWith, type Fail } from '../guard.js';

export const fail: Fail<MarketErrorName> = failWith(MARKET_ERRORS);

/** Runs pure domain math, turning its AmmError into the program error of the same name. */
export function domain<T>(run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof AmmError) fail(e.errorName, e.message);
    throw e;
  }
}

/** Decodes instruction data, answering InstructionDidNotDeserialize for malformed bytes. */
export function decodeArgs<T>(decode: () => T): T {
  return decodeOrFail(fail, decode);
}

export class AccountList extends AccountSlots<MarketErrorName> {
  constructor(keys: readonly AccountMeta[], names: readonly string[]) {
    super(keys, names, fail);
  }
}
