/**
 * The batched token-account re-read behind Family C's balance events
 * (`clob.index.token-accounts`): one read of every changed account, one write, a closed account
 * removed, and each owner told once, on the real ledger and database.
 */
import {
  ACCOUNT_SIZE,
  createCloseAccountInstruction,
  createInitializeAccount3Instruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, SystemProgram } from '@solana/web3.js';
import { Value } from 'typebox/value';
import fc from 'fast-check';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertTokenAccounts } from '../../db/repositories/token-accounts.repository.js';
import { jobCatalog } from '../../jobs/catalog.js';
import { clobIndexTokenAccountsProcessor } from '../../jobs/processors/family-c/index.processors.js';
import type { FamilyCContext } from '../../src/services/family-c/context.js';
import { openClobHarness, trader, USDC, type CHarness } from './family-c.harness.js';

let h: CHarness;
beforeAll(async () => {
  h = await openClobHarness();
}, 60_000);
afterAll(async () => {
  await h.close();
});

const rowOf = (address: string) =>
  h.daemon.db.db.selectFrom('token_accounts').selectAll().where('address', '=', address).executeTakeFirst();

describe('clob.index.token-accounts', () => {
  it('re-reads the changed accounts at once, removes a closed one, and tells each owner once', async () => {
    const [alice, bob] = [await trader(h, 5n * USDC), await trader(h, 7n * USDC)];
    const aliceAta = getAssociatedTokenAddressSync(h.usdcMint, alice.publicKey);
    const bobAta = getAssociatedTokenAddressSync(h.usdcMint, bob.publicKey);
    // Alice's second USDC account, and one that Bob then closes.
    const [second, doomed] = [Keypair.generate(), Keypair.generate()];
    const rent = 2_039_280; // the rent-exempt minimum of a 165-byte token account
    for (const [account, owner] of [
      [second, alice],
      [doomed, bob],
    ] as const) {
      await h.ledger.sendInstructions(
        [
          SystemProgram.createAccount({
            fromPubkey: owner.publicKey,
            newAccountPubkey: account.publicKey,
            lamports: rent,
            space: ACCOUNT_SIZE,
            programId: TOKEN_PROGRAM_ID,
          }),
          createInitializeAccount3Instruction(account.publicKey, h.usdcMint, owner.publicKey),
        ],
        [owner, account],
      );
    }
    const slot = BigInt(h.ledger.slot);
    const addresses = [aliceAta, second.publicKey, bobAta, doomed.publicKey].map((a) => a.toBase58());
    // What the index held before: stale amounts at an older slot, and the account about to close.
    await upsertTokenAccounts(
      h.daemon.db.db,
      addresses.map((address, i) => ({
        address,
        mint: h.usdcMint.toBase58(),
        owner: (i < 2 ? alice : bob).publicKey.toBase58(),
        amount: 1n,
        slot: slot - 1n,
      })),
    );
    await h.ledger.sendInstructions([createCloseAccountInstruction(doomed.publicKey, bob.publicKey, bob.publicKey)], [bob]);

    const told: Array<[string, string | null]> = [];
    const c = { db: h.daemon.db.db, chain: h.daemon.chain.client } as unknown as FamilyCContext;
    const run = clobIndexTokenAccountsProcessor(c, {
      tokenAccountIndexed: async (address, owner) => {
        told.push([address, owner]);
      },
    });
    const result = await run({ addresses }, {} as never, pino({ level: 'silent' }));

    expect((await rowOf(addresses[0]!))?.amount).toBe(5n * USDC);
    expect((await rowOf(addresses[1]!))?.amount).toBe(0n);
    expect((await rowOf(addresses[2]!))?.amount).toBe(7n * USDC);
    expect(await rowOf(addresses[3]!)).toBeUndefined();
    expect(told).toEqual([
      [addresses[0], alice.publicKey.toBase58()],
      [addresses[2], bob.publicKey.toBase58()],
      [addresses[3], null],
    ]);
    expect(result).toEqual({ accounts: 4, closed: 1, owners: 3 });

    // A hook that takes them all is called once, with the same owners in the same order.
    const calls: Array<ReadonlyArray<{ address: string; owner: string | null }>> = [];
    const batched = clobIndexTokenAccountsProcessor(c, {
      tokenAccountIndexed: async () => {
        throw new Error('the batched hook takes every owner');
      },
      tokenAccountsIndexed: async (changes) => {
        calls.push(changes);
      },
    });
    await batched({ addresses }, {} as never, pino({ level: 'silent' }));
    expect(calls).toEqual([told.map(([address, owner]) => ({ address, owner }))]);
  });
});

describe('clob.index.token-accounts payload', () => {
  const payload = jobCatalog['clob.index.token-accounts'].payload;
  it('takes 1 to 100 addresses and nothing else, whatever it is handed', () => {
    const address = Keypair.generate().publicKey.toBase58();
    expect(Value.Check(payload, { addresses: [address] })).toBe(true);
    expect(Value.Check(payload, { addresses: Array(100).fill(address) })).toBe(true);
    for (const bad of [{ addresses: [] }, { addresses: Array(101).fill(address) }, { addresses: ['0OIl'] }, { address }, null, 'x'])
      expect(Value.Check(payload, bad)).toBe(false);
    fc.assert(
      fc.property(fc.anything(), (value) => {
        const ok = Value.Check(payload, value); // never throws
        return !ok || Array.isArray((value as { addresses: unknown }).addresses);
      }),
      { numRuns: 500 },
    );
  });
});
