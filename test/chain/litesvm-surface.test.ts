/**
 * The part of LiteSVM the embedded cluster uses beyond its public API, checked against the pinned
 * version so that an upgrade fails here, by name, instead of somewhere deep inside the ledger.
 *
 * src/chain/embedded/svm-raw.ts reaches the native binding (`litesvm/dist/internal.js`) through the
 * wrapper's private `inner` field, for speed (its header says why); tx-errors.ts tells failures
 * apart with `instanceof` on the public class and reads the binding's numeric error enums by
 * position. TypeScript checks none of this: `inner` is reached through a cast, napi functions
 * report no arity (`.length` is 0), and the enums are `const enum` in the .d.ts only. So every
 * piece is exercised on a tiny real call. If this file fails after an upgrade, re-read svm-raw.ts
 * and tx-errors.ts against the new `litesvm/dist/internal.d.ts`, or stay on the pinned version.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { address } from '@solana/kit';
import { Keypair, SystemProgram, TransactionInstruction } from '@solana/web3.js';
import { LiteSVM, FailedTransactionMetadata as PublicFailedTransactionMetadata } from 'litesvm';
import * as internal from 'litesvm/dist/internal.js';
import { describe, expect, it } from 'vitest';
import { configureSvm } from '../../src/chain/embedded/ledger-persistence.js';
import { addressBytes, addressText, native, nativeGet, nativeSend, nativeSet } from '../../src/chain/embedded/svm-raw.js';
import { isFailed, mapLiteSvmError } from '../../src/chain/embedded/tx-errors.js';
import { signedTx } from './chain-test-helpers.js';

const PINNED = '1.5.0';
const SVM_RAW = 'src/chain/embedded/svm-raw.ts relies on LiteSVM internals';
const TX_ERRORS = 'src/chain/embedded/tx-errors.ts relies on LiteSVM internals';
const SYSTEM = SystemProgram.programId.toBase58();
const require = createRequire(import.meta.url);

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

/** The member names of a `const enum` in internal.d.ts, in value order (they start at 0, step 1). */
function dtsEnum(name: string): string[] {
  const dts = readFileSync(require.resolve('litesvm/dist/internal.d.ts'), 'utf8');
  const body = new RegExp(`export declare const enum ${name} \\{([^}]*)\\}`).exec(dts)?.[1];
  if (!body) throw new Error(`${TX_ERRORS}: internal.d.ts no longer declares the const enum ${name}`);
  const members = [...body.matchAll(/(\w+) = (\d+)/g)].map((m) => ({ name: m[1]!, value: Number(m[2]) }));
  if (members.length === 0) throw new Error(`${TX_ERRORS}: the const enum ${name} in internal.d.ts has no \`Name = n\` members this test can read`);
  members.forEach((m, i) => expect(m.value, `${TX_ERRORS}: ${name}.${m.name} is not at position ${i}`).toBe(i));
  return members.map((m) => m.name);
}

/** A string-array constant of tx-errors.ts (the tables indexed by those enums). */
function txErrorsTable(constName: string): string[] {
  const source = readFileSync(new URL('../../src/chain/embedded/tx-errors.ts', import.meta.url), 'utf8');
  const body = new RegExp(`const ${constName} = \\[([^\\]]*)\\]`).exec(source)?.[1];
  if (!body) throw new Error(`tx-errors.ts no longer declares ${constName}; update this test with it`);
  const names = [...body.matchAll(/'(\w+)'/g)].map((m) => m[1]!);
  if (names.length === 0) throw new Error(`tx-errors.ts's ${constName} lists no quoted names this test can read; update this test with it`);
  return names;
}

describe(`LiteSVM ${PINNED}: the surface svm-raw.ts and tx-errors.ts use beyond the public API`, () => {
  it('is pinned exactly, to the version this surface was checked against', () => {
    const ours = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };
    expect(ours.dependencies['litesvm'], `${SVM_RAW}: package.json must pin litesvm exactly (no ^ or ~)`).toBe(PINNED);
    const installed = JSON.parse(readFileSync(require.resolve('litesvm/package.json'), 'utf8')) as { version: string };
    expect(installed.version, `${SVM_RAW}: the installed litesvm is not the pinned one`).toBe(PINNED);
  });

  it('exports from dist/internal.js the classes used, and the public FailedTransactionMetadata is the same class', () => {
    for (const name of ['LiteSvm', 'Account', 'AddressAndAccount', 'TransactionMetadata', 'FailedTransactionMetadata'] as const) {
      expect(typeof internal[name], `${SVM_RAW}: litesvm/dist/internal.js exports no ${name}`).toBe('function');
    }
    // isFailed() tests the binding's results with the public class.
    expect(PublicFailedTransactionMetadata, `${TX_ERRORS}: 'litesvm' no longer re-exports the binding's FailedTransactionMetadata`)
      .toBe(internal.FailedTransactionMetadata);
  });

  it('keeps the native instance in `inner`, also once configured as the ledger does and when restored from bytes', () => {
    const svm = configureSvm(new LiteSVM());
    expect(native(svm), `${SVM_RAW}: a LiteSVM has no native instance in \`inner\``).toBeInstanceOf(internal.LiteSvm);
    const owner = Keypair.generate().publicKey.toBase58();
    const kept = Keypair.generate().publicKey.toBase58();
    nativeSet(svm, kept, owner, 7n, Uint8Array.of(9), false);
    const restored = configureSvm(LiteSVM.fromBytes(svm.toBytes()));
    expect(native(restored), `${SVM_RAW}: LiteSVM.fromBytes leaves no native instance in \`inner\``).toBeInstanceOf(internal.LiteSvm);
    expect(nativeGet(restored, kept)?.lamports(), `${SVM_RAW}: an account set through \`inner\` is not in the snapshot`).toBe(7n);
  });

  it('inner.setAccount / getAccount round-trip an Account built as svm-raw.ts builds it, and are the state the wrapper reads', () => {
    const svm = configureSvm(new LiteSVM());
    const addr = Keypair.generate().publicKey.toBase58();
    const owner = Keypair.generate().publicKey.toBase58();
    nativeSet(svm, addr, owner, 5_000n, Uint8Array.of(1, 2, 3), false);
    const acc = nativeGet(svm, addr);
    expect(acc, `${SVM_RAW}: inner.getAccount does not return the account inner.setAccount stored`).toBeInstanceOf(internal.Account);
    expect(acc!.lamports(), `${SVM_RAW}: Account.lamports()`).toBe(5_000n);
    expect([...acc!.data()], `${SVM_RAW}: Account.data()`).toEqual([1, 2, 3]);
    expect(addressText(acc!.owner()), `${SVM_RAW}: Account.owner() as 32 address bytes`).toBe(owner);
    expect(acc!.executable(), `${SVM_RAW}: Account.executable()`).toBe(false);
    const seen = svm.getAccount(address(addr));
    expect(seen.exists ? seen.lamports : null, `${SVM_RAW}: \`inner\` is not the state the public wrapper reads`).toBe(5_000n);
    expect(nativeGet(svm, Keypair.generate().publicKey.toBase58()), `${SVM_RAW}: inner.getAccount of an unknown address is not null`).toBeNull();
  });

  it("inner.getProgramAccounts lists an owner's accounts as { address, account() }", () => {
    const svm = configureSvm(new LiteSVM());
    const program = Keypair.generate().publicKey.toBase58();
    const owned = [Keypair.generate(), Keypair.generate()].map((k) => k.publicKey.toBase58());
    for (const a of owned) nativeSet(svm, a, program, 1n, Uint8Array.of(4), false);
    const found = native(svm).getProgramAccounts(addressBytes(program));
    expect(found.map((f) => addressText(f.address)).sort(), `${SVM_RAW}: inner.getProgramAccounts (ledger-queries.ts, account-index.ts)`)
      .toEqual([...owned].sort());
    expect(found.map((f) => f.account().lamports()), `${SVM_RAW}: AddressAndAccount.account()`).toEqual([1n, 1n]);
  });

  it.each([['Legacy', 'legacy'], ['Versioned', 0]] as const)('inner.send%sTransaction executes wire bytes and reports logs() and computeUnitsConsumed()', (_name, version) => {
    const { svm, payer } = svmWithPayer();
    const to = Keypair.generate().publicKey;
    const result = send(svm, payer, SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 1_000_000n }), version);
    expect(result, `${SVM_RAW}: nativeSend(${version}) did not return TransactionMetadata`).toBeInstanceOf(internal.TransactionMetadata);
    expect(isFailed(result)).toBe(false);
    const meta = result as internal.TransactionMetadata;
    expect(meta.logs(), `${SVM_RAW}: TransactionMetadata.logs()`).toContain(`Program ${SYSTEM} success`);
    expect(typeof meta.computeUnitsConsumed(), `${SVM_RAW}: TransactionMetadata.computeUnitsConsumed() as bigint`).toBe('bigint');
    expect(nativeGet(svm, to.toBase58())?.lamports(), `${SVM_RAW}: the transfer did not land`).toBe(1_000_000n);
  });

  it('reports failures as FailedTransactionMetadata whose err() tx-errors.ts maps to the JSON-RPC shapes', () => {
    const { svm, payer } = svmWithPayer();
    const to = Keypair.generate().publicKey;
    const broke = send(svm, payer, SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: 10n ** 12n }));
    expect(broke, `${TX_ERRORS}: a failed transaction is not a FailedTransactionMetadata`).toBeInstanceOf(internal.FailedTransactionMetadata);
    expect(isFailed(broke)).toBe(true);
    const failed = broke as internal.FailedTransactionMetadata;
    expect(mapLiteSvmError(failed), `${TX_ERRORS}: an instruction's custom error`).toEqual({ InstructionError: [0, { Custom: 1 }] });
    expect(failed.meta().logs(), `${TX_ERRORS}: FailedTransactionMetadata.meta().logs()`).toContain(`Program ${SYSTEM} failed: custom program error: 0x1`);

    const garbage = new TransactionInstruction({ programId: SystemProgram.programId, keys: [], data: Buffer.from([0xff, 0xff, 0xff, 0xff]) });
    expect(mapLiteSvmError(send(svm, payer, garbage) as internal.FailedTransactionMetadata), `${TX_ERRORS}: a fieldless instruction error`)
      .toEqual({ InstructionError: [0, 'InvalidInstructionData'] });

    const nobody = Keypair.generate();
    const unfunded = send(svm, nobody, SystemProgram.transfer({ fromPubkey: nobody.publicKey, toPubkey: to, lamports: 1n }));
    expect(mapLiteSvmError(unfunded as internal.FailedTransactionMetadata), `${TX_ERRORS}: a fieldless transaction error`).toBe('AccountNotFound');
  });

  it("declares the error enums in the order of tx-errors.ts's tables", () => {
    expect(dtsEnum('InstructionErrorFieldless'), `${TX_ERRORS}: INSTRUCTION_ERRORS is indexed by InstructionErrorFieldless`)
      .toEqual(txErrorsTable('INSTRUCTION_ERRORS'));
    expect(dtsEnum('TransactionErrorFieldless'), `${TX_ERRORS}: TRANSACTION_ERRORS is indexed by TransactionErrorFieldless`)
      .toEqual(txErrorsTable('TRANSACTION_ERRORS'));
  });
});
