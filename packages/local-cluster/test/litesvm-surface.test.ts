/**
 * The part of LiteSVM the embedded cluster uses beyond its public API, checked against the pinned
 * version so that an upgrade fails here, by name, instead of somewhere deep inside the ledger.
 *
 * packages/local-cluster/src/svm-raw.ts reaches the native binding (`litesvm/dist/internal.js`) through the
 * wrapper's private `inner` field, for speed (its header says why); tx-errors.ts tells failures
 * apart with `instanceof` on the public class and reads the binding's numeric error enums by
 * position. TypeScript checks none of this: `inner` is reached through a cast, napi functions
 * report no arity (`.length` is 0), and the enums are `const enum` in the .d.ts only. So every
 * piece is exercised on a tiny real call. If this file fails after an upgrade, re-read svm-raw.ts
 * and tx-errors.ts against the new `litesvm/dist/internal.d.ts`, or stay on the pinned version
 * (docs/dependencies.md).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { address } from '@solana/kit';
import { Keypair, SystemProgram, TransactionInstruction, type PublicKey } from '@solana/web3.js';
import { LiteSVM, FailedTransactionMetadata as PublicFailedTransactionMetadata } from 'litesvm';
import * as internal from 'litesvm/dist/internal.js';
import { describe, expect, it } from 'vitest';
import { configureSvm } from '../src/ledger-persistence.js';
import { addressBytes, addressText, native, nativeGet, nativeSend, nativeSet } from '../src/svm-raw.js';
import { isFailed, mapLiteSvmError } from '../src/tx-errors.js';
import { signedTx } from '../src/testing/transactions.js';

const PINNED = '1.5.0';
const SYSTEM = SystemProgram.programId.toBase58();
const require = createRequire(import.meta.url);

/** Failure messages that name the file relying on the piece that broke. */
const svmRaw = (what: string) => `packages/local-cluster/src/svm-raw.ts relies on LiteSVM internals: ${what}`;
const txErrors = (what: string) => `packages/local-cluster/src/tx-errors.ts relies on LiteSVM internals: ${what}`;

const newAddress = () => Keypair.generate().publicKey.toBase58();

/** An SVM as the ledger drives it (no signature or blockhash checks), with a funded fee payer. */
function svmWithPayer(): { svm: LiteSVM; payer: Keypair } {
  const svm = configureSvm(new LiteSVM());
  const payer = Keypair.generate();
  nativeSet(svm, payer.publicKey.toBase58(), SYSTEM, 1_000_000_000n, new Uint8Array(0), false);
  return { svm, payer };
}

function send(svm: LiteSVM, payer: Keypair, ix: TransactionInstruction, version: 'legacy' | 0 = 'legacy') {
  return nativeSend(svm, signedTx(svm.latestBlockhash(), payer, [ix], [], version), version);
}

const transfer = (from: PublicKey, to: PublicKey, lamports: bigint) => SystemProgram.transfer({ fromPubkey: from, toPubkey: to, lamports });

/** The member names of a `const enum` in internal.d.ts, in value order (they start at 0, step 1). */
function dtsEnum(name: string): string[] {
  const dts = readFileSync(require.resolve('litesvm/dist/internal.d.ts'), 'utf8');
  const body = new RegExp(`export declare const enum ${name} \\{([^}]*)\\}`).exec(dts)?.[1];
  if (!body) throw new Error(txErrors(`internal.d.ts no longer declares the const enum ${name}`));
  const members = [...body.matchAll(/(\w+) = (\d+)/g)].map((m) => ({ name: m[1]!, value: Number(m[2]) }));
  if (members.length === 0) throw new Error(txErrors(`no \`Name = n\` members readable in the const enum ${name}`));
  members.forEach((m, i) => expect(m.value, txErrors(`${name}.${m.name} is not at position ${i}`)).toBe(i));
  return members.map((m) => m.name);
}

/** A string-array constant of tx-errors.ts (the tables indexed by those enums). */
function txErrorsTable(constName: string): string[] {
  const source = readFileSync(new URL('../src/tx-errors.ts', import.meta.url), 'utf8');
  const body = new RegExp(`const ${constName} = \\[([^\\]]*)\\]`).exec(source)?.[1];
  const names = [...(body ?? '').matchAll(/'(\w+)'/g)].map((m) => m[1]!);
  if (names.length === 0) throw new Error(`tx-errors.ts declares no readable ${constName}; update this test with it`);
  return names;
}

describe(`LiteSVM ${PINNED}: the surface svm-raw.ts and tx-errors.ts use beyond the public API`, () => {
  it('is pinned exactly, to the version this surface was checked against', () => {
    const packageJson = readFileSync(new URL('../package.json', import.meta.url), 'utf8');
    const ours = JSON.parse(packageJson) as { dependencies: Record<string, string> };
    expect(ours.dependencies['litesvm'], svmRaw('package.json must pin litesvm exactly (no ^ or ~)')).toBe(PINNED);
    const installed = JSON.parse(readFileSync(require.resolve('litesvm/package.json'), 'utf8')) as { version: string };
    expect(installed.version, svmRaw('the installed litesvm is not the pinned one')).toBe(PINNED);
  });

  it('exports from dist/internal.js the classes used; the public FailedTransactionMetadata is the same class', () => {
    const used = ['LiteSvm', 'Account', 'AddressAndAccount', 'TransactionMetadata', 'FailedTransactionMetadata'];
    for (const name of used as (keyof typeof internal)[]) {
      expect(typeof internal[name], svmRaw(`litesvm/dist/internal.js exports no ${name}`)).toBe('function');
    }
    // isFailed() tests the binding's results with the public class.
    const sameClass = txErrors("'litesvm' no longer re-exports the binding's FailedTransactionMetadata");
    expect(PublicFailedTransactionMetadata, sameClass).toBe(internal.FailedTransactionMetadata);
  });

  it('keeps the native instance in `inner` once configured as the ledger does, and when restored from bytes', () => {
    const svm = configureSvm(new LiteSVM());
    expect(native(svm), svmRaw('a LiteSVM has no native instance in `inner`')).toBeInstanceOf(internal.LiteSvm);
    const kept = newAddress();
    nativeSet(svm, kept, newAddress(), 7n, Uint8Array.of(9), false);
    const restored = configureSvm(LiteSVM.fromBytes(svm.toBytes()));
    expect(native(restored), svmRaw('LiteSVM.fromBytes leaves no native instance in `inner`')).toBeInstanceOf(internal.LiteSvm);
    expect(nativeGet(restored, kept)?.lamports(), svmRaw('an account set through `inner` is not in the snapshot')).toBe(7n);
  });

  it('inner.setAccount / getAccount round-trip an Account built as svm-raw.ts does; the wrapper reads it', () => {
    const svm = configureSvm(new LiteSVM());
    const addr = newAddress();
    const owner = newAddress();
    nativeSet(svm, addr, owner, 5_000n, Uint8Array.of(1, 2, 3), false);
    const acc = nativeGet(svm, addr);
    expect(acc, svmRaw('inner.getAccount does not return what setAccount stored')).toBeInstanceOf(internal.Account);
    expect(acc!.lamports(), svmRaw('Account.lamports()')).toBe(5_000n);
    expect([...acc!.data()], svmRaw('Account.data()')).toEqual([1, 2, 3]);
    expect(addressText(acc!.owner()), svmRaw('Account.owner() as 32 address bytes')).toBe(owner);
    expect(acc!.executable(), svmRaw('Account.executable()')).toBe(false);
    const seen = svm.getAccount(address(addr));
    expect(seen.exists ? seen.lamports : null, svmRaw('`inner` is not the state the wrapper reads')).toBe(5_000n);
    expect(nativeGet(svm, newAddress()), svmRaw('inner.getAccount of an unknown address is not null')).toBeNull();
  });

  it("inner.getProgramAccounts lists an owner's accounts as { address, account() }", () => {
    const svm = configureSvm(new LiteSVM());
    const program = newAddress();
    const owned = [newAddress(), newAddress()];
    for (const a of owned) nativeSet(svm, a, program, 1n, Uint8Array.of(4), false);
    const found = native(svm).getProgramAccounts(addressBytes(program));
    const listed = found.map((f) => addressText(f.address)).sort();
    expect(listed, svmRaw('inner.getProgramAccounts (ledger-queries, account-index)')).toEqual([...owned].sort());
    expect(
      found.map((f) => f.account().lamports()),
      svmRaw('AddressAndAccount.account()'),
    ).toEqual([1n, 1n]);
  });

  it.each([
    ['Legacy', 'legacy'],
    ['Versioned', 0],
  ] as const)('inner.send%sTransaction executes wire bytes and reports logs() and computeUnitsConsumed()', (_name, version) => {
    const { svm, payer } = svmWithPayer();
    const to = Keypair.generate().publicKey;
    const result = send(svm, payer, transfer(payer.publicKey, to, 1_000_000n), version);
    expect(result, svmRaw(`nativeSend(${version}) did not return TransactionMetadata`)).toBeInstanceOf(internal.TransactionMetadata);
    expect(isFailed(result)).toBe(false);
    const meta = result as internal.TransactionMetadata;
    expect(meta.logs(), svmRaw('TransactionMetadata.logs()')).toContain(`Program ${SYSTEM} success`);
    expect(typeof meta.computeUnitsConsumed(), svmRaw('TransactionMetadata.computeUnitsConsumed() as bigint')).toBe('bigint');
    expect(nativeGet(svm, to.toBase58())?.lamports(), svmRaw('the transfer did not land')).toBe(1_000_000n);
  });

  it('reports failures as FailedTransactionMetadata whose err() tx-errors.ts maps to the JSON-RPC shapes', () => {
    const { svm, payer } = svmWithPayer();
    const to = Keypair.generate().publicKey;
    const broke = send(svm, payer, transfer(payer.publicKey, to, 10n ** 12n));
    expect(broke, txErrors('a failed transaction is not a FailedTransactionMetadata')).toBeInstanceOf(internal.FailedTransactionMetadata);
    expect(isFailed(broke)).toBe(true);
    const failed = broke as internal.FailedTransactionMetadata;
    expect(mapLiteSvmError(failed), txErrors("an instruction's custom error")).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(failed.meta().logs(), txErrors('FailedTransactionMetadata.meta().logs()')).toContain(
      `Program ${SYSTEM} failed: custom program error: 0x1`,
    );

    const garbage = new TransactionInstruction({
      programId: SystemProgram.programId,
      keys: [],
      data: Buffer.alloc(4, 255), // no such system instruction
    });
    const refused = send(svm, payer, garbage) as internal.FailedTransactionMetadata;
    expect(mapLiteSvmError(refused), txErrors('a fieldless instruction error')).toEqual({
      InstructionError: [0, 'InvalidInstructionData'],
    });

    const nobody = Keypair.generate();
    const unfunded = send(svm, nobody, transfer(nobody.publicKey, to, 1n));
    expect(mapLiteSvmError(unfunded as internal.FailedTransactionMetadata), txErrors('a fieldless transaction error')).toBe(
      'AccountNotFound',
    );
  });

  it("declares the error enums in the order of tx-errors.ts's tables", () => {
    expect(dtsEnum('InstructionErrorFieldless'), txErrors('INSTRUCTION_ERRORS is indexed by InstructionErrorFieldless')).toEqual(
      txErrorsTable('INSTRUCTION_ERRORS'),
    );
    expect(dtsEnum('TransactionErrorFieldless'), txErrors('TRANSACTION_ERRORS is indexed by TransactionErrorFieldless')).toEqual(
      txErrorsTable('TRANSACTION_ERRORS'),
    );
  });
});
