/**
 * Versioned (v0) transactions with an address lookup table on the embedded cluster, as on a real
 * one: the table is created and extended through the Address Lookup Table program, and an
 * exchange deposit whose accounts are loaded from the table executes.
 */
import { AddressLookupTableAccount, AddressLookupTableProgram, Keypair, TransactionMessage, VersionedTransaction } from '@solana/web3.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeTransaction } from '../../src/rpc-transaction.encoding.js';
import { findExchangeConfigPda, findUserEscrowPda, getDepositInstruction } from '@pmx/programs';
import { ExchangeHarness } from '../../src/testing/exchange-harness.js';
import { USDC } from '../../src/testing/program-harness.js';

let h: ExchangeHarness;
beforeAll(async () => {
  h = await ExchangeHarness.open();
});
afterAll(async () => {
  await h.close();
});

describe('v0 transactions with an address lookup table', () => {
  it('creates, extends and uses a lookup table', async () => {
    const t = await h.wallet(10n * USDC);
    const slot = BigInt(h.ledger.slot);
    const [createIx, table] = AddressLookupTableProgram.createLookupTable({
      authority: t.publicKey,
      payer: t.publicKey,
      recentSlot: slot - 1n,
    });
    await h.sendOk([createIx], [t]);
    // Read-only (config, mint) and writable (the smart wallet PDA) accounts both load from the table.
    const addresses = [findExchangeConfigPda()[0], h.usdcMint, findUserEscrowPda(t.publicKey)[0]];
    await h.sendOk(
      [AddressLookupTableProgram.extendLookupTable({ lookupTable: table, authority: t.publicKey, payer: t.publicKey, addresses })],
      [t],
    );
    h.ledger.advanceSlots(2);
    const raw = h.ledger.getAccount(table)!;
    const state = AddressLookupTableAccount.deserialize(raw.data);
    expect(state.addresses.map((a) => a.toBase58())).toEqual(addresses.map((a) => a.toBase58()));
    const message = new TransactionMessage({
      payerKey: t.publicKey,
      recentBlockhash: h.ledger.getLatestBlockhash().blockhash,
      instructions: [getDepositInstruction({ owner: t.publicKey, usdcMint: h.usdcMint, amount: 3n * USDC })],
    }).compileToV0Message([new AddressLookupTableAccount({ key: table, state })]);
    expect(message.addressTableLookups).toHaveLength(1);
    expect(message.addressTableLookups[0]!.writableIndexes).toEqual([2]);
    const tx = new VersionedTransaction(message);
    tx.sign([t]);
    const res = await h.ledger.sendRawTransaction(tx.serialize());
    expect(res.err).toBeNull();
    expect(h.escrowUsdc(t.publicKey)).toBe(3n * USDC);
    // getTransaction reports it as a real node does: static keys in the message, loaded ones in meta.
    const rec = h.ledger.getTransaction(res.signature)!;
    const json = encodeTransaction(rec, 'json') as {
      transaction: { message: { accountKeys: string[]; addressTableLookups: unknown[] } };
      meta: { loadedAddresses: unknown };
    };
    expect(json.transaction.message.accountKeys).toEqual(message.staticAccountKeys.map((k) => k.toBase58()));
    expect(json.transaction.message.addressTableLookups).toEqual([
      { accountKey: table.toBase58(), writableIndexes: [2], readonlyIndexes: [0, 1] },
    ]);
    expect(json.meta.loadedAddresses).toEqual({
      writable: [addresses[2]!.toBase58()],
      readonly: [addresses[0]!.toBase58(), addresses[1]!.toBase58()],
    });
  });

  it('refuses a transaction naming a table that does not exist, changing nothing', async () => {
    const t = await h.wallet(10n * USDC);
    const fake = new AddressLookupTableAccount({
      key: Keypair.generate().publicKey,
      state: {
        deactivationSlot: 2n ** 64n - 1n,
        lastExtendedSlot: 0,
        lastExtendedSlotStartIndex: 0,
        addresses: [findExchangeConfigPda()[0], h.usdcMint],
      },
    });
    const message = new TransactionMessage({
      payerKey: t.publicKey,
      recentBlockhash: h.ledger.getLatestBlockhash().blockhash,
      instructions: [getDepositInstruction({ owner: t.publicKey, usdcMint: h.usdcMint, amount: 1n })],
    }).compileToV0Message([fake]);
    const tx = new VersionedTransaction(message);
    tx.sign([t]);
    await expect(h.ledger.sendRawTransaction(tx.serialize())).rejects.toThrow(/lookup table .* not found/);
    expect(h.usdc(t.publicKey)).toBe(10n * USDC);
  });
});
