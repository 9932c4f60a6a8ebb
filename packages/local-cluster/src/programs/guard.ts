/**
 * What both reference programs check before they trust an instruction: its accounts by position
 * with the signer/writable flags each must carry, and its data decoded without a surprise. Every
 * failure is a ProgramError with the program's own code (each program passes its error table).
 */
import type { AccountMeta, PublicKey } from '@solana/web3.js';
import { ProgramError } from '../program-runtime.js';

export type ErrorTable<N extends string> = Readonly<Record<N, { readonly code: number; readonly message: string }>>;
/** Throws the program error `name` (its message, then `detail`). */
export type Fail<N extends string> = (name: N, detail?: string) => never;
/** The errors both programs define for malformed instructions and accounts. */
export type CommonError =
  'InstructionFallbackNotFound' | 'InstructionDidNotDeserialize' | 'InvalidAccount' | 'MissingSigner' | 'AccountNotWritable';

export function failWith<N extends string>(errors: ErrorTable<N>): Fail<N> {
  return (name, detail) => {
    const { code, message } = errors[name];
    throw new ProgramError(code, name, detail ? `${message}: ${detail}` : message);
  };
}

/** Decodes instruction data; the layouts' RangeError becomes InstructionDidNotDeserialize. */
export function decodeOrFail<T>(fail: Fail<CommonError>, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    if (e instanceof RangeError) fail('InstructionDidNotDeserialize', e.message);
    throw e;
  }
}

/** The instruction's accounts by position, with the signer/writable flags each must carry. */
export class AccountSlots<N extends string> {
  constructor(
    private readonly keys: readonly AccountMeta[],
    private readonly names: readonly string[],
    private readonly fail: Fail<N | CommonError>,
  ) {
    if (keys.length < names.length) fail('InvalidAccount', `expected ${names.length} accounts, got ${keys.length}`);
  }

  private at(name: string): AccountMeta {
    const meta = this.keys[this.names.indexOf(name)];
    // A processor asking for a slot it never named is a bug in the program, not bad input.
    if (!this.names.includes(name) || !meta) throw new Error(`unknown account slot ${name}`);
    return meta;
  }

  key(name: string): PublicKey {
    return this.at(name).pubkey;
  }

  signer(name: string): PublicKey {
    if (!this.at(name).isSigner) this.fail('MissingSigner', name);
    return this.key(name);
  }

  writable(...names: string[]): void {
    for (const n of names) if (!this.at(n).isWritable) this.fail('AccountNotWritable', n);
  }

  /** The account at `name` must be exactly `expected` (else `error`, InvalidAccount by default). */
  expect(name: string, expected: PublicKey, error: N | 'InvalidAccount' = 'InvalidAccount'): PublicKey {
    const k = this.key(name);
    if (!k.equals(expected)) this.fail(error, `${name} must be ${expected.toBase58()}`);
    return k;
  }
}
