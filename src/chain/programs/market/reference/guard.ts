/**
 * Checks every processor makes before it trusts an account, and the mapping of failures to the
 * program's error codes (ProgramError with the Anchor-numbered code and its name).
 */
import type { AccountMeta, PublicKey } from '@solana/web3.js';
import { AmmError } from '../../../../domain/amm/index.js';
import { ProgramError } from '../../../embedded/program-runtime.js';
import { MARKET_ERRORS, type MarketErrorName } from '../errors.js';

export function fail(name: MarketErrorName, detail?: string): never {
  const { code, message } = MARKET_ERRORS[name];
  throw new ProgramError(code, name, detail ? `${message}: ${detail}` : message);
}

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
  try {
    return decode();
  } catch (e) {
    if (e instanceof RangeError) fail('InstructionDidNotDeserialize', e.message);
    throw e;
  }
}

/** The instruction's accounts by position, with the signer/writable flags each must carry. */
export class AccountList {
  constructor(
    private readonly keys: AccountMeta[],
    private readonly names: string[],
  ) {
    if (keys.length < names.length) fail('InvalidAccount', `expected ${names.length} accounts, got ${keys.length}`);
  }

  private at(name: string): AccountMeta {
    const i = this.names.indexOf(name);
    const meta = this.keys[i];
    if (i < 0 || !meta) throw new Error(`unknown account slot ${name}`);
    return meta;
  }

  key(name: string): PublicKey {
    return this.at(name).pubkey;
  }

  signer(name: string): PublicKey {
    const m = this.at(name);
    if (!m.isSigner) fail('MissingSigner', name);
    return m.pubkey;
  }

  writable(name: string): PublicKey {
    const m = this.at(name);
    if (!m.isWritable) fail('AccountNotWritable', name);
    return m.pubkey;
  }

  /** The account at `name` must be exactly `expected`. */
  expect(name: string, expected: PublicKey): PublicKey {
    const k = this.at(name).pubkey;
    if (!k.equals(expected)) fail('InvalidAccount', `${name} must be ${expected.toBase58()}`);
    return k;
  }
}
