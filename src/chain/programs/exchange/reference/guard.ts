/** Account checks and the mapping of failures to the exchange program's error codes. */
import type { AccountMeta, PublicKey } from '@solana/web3.js';
import { ProgramError } from '../../../embedded/program-runtime.js';
import { EXCHANGE_ERRORS, type ExchangeErrorName } from '../errors.js';

export function fail(name: ExchangeErrorName, detail?: string): never {
  const { code, message } = EXCHANGE_ERRORS[name];
  throw new ProgramError(code, name, detail ? `${message}: ${detail}` : message);
}

/** Decodes instruction data; malformed bytes answer InstructionDidNotDeserialize. */
export function decodeArgs<T>(decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof RangeError) fail('InstructionDidNotDeserialize', e.message);
    throw e;
  }
}

/** The instruction's accounts by position, with the signer/writable flags each must carry. */
export class Accounts {
  constructor(private readonly keys: AccountMeta[], private readonly names: readonly string[]) {
    if (keys.length < names.length) fail('InvalidAccount', `expected ${names.length} accounts, got ${keys.length}`);
  }

  private at(name: string): AccountMeta {
    const meta = this.keys[this.names.indexOf(name)];
    if (!meta) throw new Error(`unknown account slot ${name}`);
    return meta;
  }

  key(name: string): PublicKey {
    return this.at(name).pubkey;
  }

  signer(name: string): PublicKey {
    if (!this.at(name).isSigner) fail('MissingSigner', name);
    return this.key(name);
  }

  writable(...names: string[]): void {
    for (const n of names) if (!this.at(n).isWritable) fail('AccountNotWritable', n);
  }

  expect(name: string, expected: PublicKey, error: ExchangeErrorName = 'InvalidAccount'): PublicKey {
    const k = this.key(name);
    if (!k.equals(expected)) fail(error, `${name} must be ${expected.toBase58()}`);
    return k;
  }
}
