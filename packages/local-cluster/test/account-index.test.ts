/**
 * The embedded ledger's account index (issue 15 item 1): token accounts by mint and owner and
 * program accounts by program, kept current by landed transactions (creation, transfer, owner
 * change, close) and equal to what a fresh scan builds when the ledger reopens; and the sliced
 * read that serves getProgramAccounts without holding the event loop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  AuthorityType,
  createAssociatedTokenAccountIdempotentInstruction,
  createCloseAccountInstruction,
  createSetAuthorityInstruction,
  createTransferInstruction,
  getAssociatedTokenAddressSync,
  TOKEN_PROGRAM_ID,
} from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import bs58 from 'bs58';
import { LiteSVM } from 'litesvm';
import { AccountIndex } from '../src/account-index.js';
import { EmbeddedLedger } from '../src/ledger.js';
import { programAccountsSliced } from '../src/program-accounts.js';
import type { CompiledFilter } from '../src/rpc-params.js';
import { TOKEN_ACCOUNT_SIZE } from '@pmx/programs';
import { tempDir } from '../src/testing/transactions.js';

const TOKEN = TOKEN_PROGRAM_ID.toBase58();
const byMint = (mint: string): CompiledFilter[] => [{ dataSize: TOKEN_ACCOUNT_SIZE }, { memcmp: { offset: 0, bytes: bs58.decode(mint) } }];
const byOwner = (owner: string): CompiledFilter[] => [{ memcmp: { offset: 32, bytes: bs58.decode(owner) } }];
const addresses = (found: Array<{ address: string }>) => found.map((f) => f.address).sort();

describe('embedded ledger account index', () => {
  const dirs: { remove(): void }[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => d.remove()));

  it('follows creations, owner changes and closes, and equals the index a reopened ledger rebuilds by scanning', async () => {
    const dir = tempDir();
    dirs.push(dir);
    const [alice, bob, carol] = [Keypair.generate(), Keypair.generate(), Keypair.generate()];
    let ledger = await EmbeddedLedger.open({ dataDir: dir.path });
    const mint = ledger.bootstrapInfo.usdcMint;
    const ata = (owner: PublicKey) => getAssociatedTokenAddressSync(new PublicKey(mint), owner, true).toBase58();
    try {
      await ledger.mintUsdc(alice.publicKey, 5_000_000n);
      await ledger.mintUsdc(bob.publicKey, 1n);
      expect(addresses(ledger.getProgramAccounts(TOKEN, byOwner(alice.publicKey.toBase58())))).toEqual([ata(alice.publicKey)]);
      const ofMint = addresses(ledger.getProgramAccounts(TOKEN, byMint(mint)));
      expect(ofMint).toEqual(expect.arrayContaining([ata(alice.publicKey), ata(bob.publicKey)]));
      // A mint's query visits that mint's accounts only, not every token account.
      expect(ledger.programAccountCandidates(TOKEN, byMint(mint))!.sort()).toEqual(ofMint);

      // Bob empties and closes his account; alice hands hers to carol (SetAuthority AccountOwner).
      await ledger.sendInstructions(
        [
          createTransferInstruction(new PublicKey(ata(bob.publicKey)), new PublicKey(ata(alice.publicKey)), bob.publicKey, 1n),
          createCloseAccountInstruction(new PublicKey(ata(bob.publicKey)), bob.publicKey, bob.publicKey),
        ],
        [bob],
      );
      await ledger.sendInstructions(
        [createSetAuthorityInstruction(new PublicKey(ata(alice.publicKey)), alice.publicKey, AuthorityType.AccountOwner, carol.publicKey)],
        [alice],
      );
      expect(ledger.getProgramAccounts(TOKEN, byOwner(bob.publicKey.toBase58()))).toEqual([]);
      expect(ledger.getProgramAccounts(TOKEN, byOwner(alice.publicKey.toBase58()))).toEqual([]);
      expect(addresses(ledger.getProgramAccounts(TOKEN, byOwner(carol.publicKey.toBase58())))).toEqual([ata(alice.publicKey)]);
      expect(ledger.getTokenAccountsByOwner(carol.publicKey, { mint }).map((t) => t.token.amount)).toEqual([5_000_001n]);
      expect(addresses(ledger.getProgramAccounts(TOKEN, byMint(mint)))).not.toContain(ata(bob.publicKey));

      // A token account created by a transaction (not the faucet) is indexed too.
      await ledger.airdrop(alice.publicKey, 1_000_000_000n);
      await ledger.sendInstructions(
        [
          createAssociatedTokenAccountIdempotentInstruction(
            alice.publicKey,
            new PublicKey(ata(bob.publicKey)),
            bob.publicKey,
            new PublicKey(mint),
          ),
        ],
        [alice],
      );
      expect(addresses(ledger.getProgramAccounts(TOKEN, byOwner(bob.publicKey.toBase58())))).toEqual([ata(bob.publicKey)]);
      const before = {
        mint: addresses(ledger.getProgramAccounts(TOKEN, byMint(mint))),
        all: addresses(ledger.getProgramAccounts(TOKEN)),
        carol: addresses(ledger.getProgramAccounts(TOKEN, byOwner(carol.publicKey.toBase58()))),
      };
      await ledger.close();

      ledger = await EmbeddedLedger.open({ dataDir: dir.path });
      expect({
        mint: addresses(ledger.getProgramAccounts(TOKEN, byMint(mint))),
        all: addresses(ledger.getProgramAccounts(TOKEN)),
        carol: addresses(ledger.getProgramAccounts(TOKEN, byOwner(carol.publicKey.toBase58()))),
      }).toEqual(before);
    } finally {
      await ledger.close();
    }
  });

  it('reads a big program in slices, yielding, stamped one slot before the first read', async () => {
    const ledger = await EmbeddedLedger.open();
    try {
      const mint = Keypair.generate().publicKey;
      const data = Buffer.alloc(TOKEN_ACCOUNT_SIZE);
      mint.toBuffer().copy(data, 0);
      Keypair.generate().publicKey.toBuffer().copy(data, 32);
      data[108] = 1; // initialized
      for (let i = 0; i < 700; i++)
        ledger.setAccount(Keypair.generate().publicKey.toBase58(), { owner: TOKEN, lamports: 2_039_280n, data });
      const slot = ledger.slot;

      let turns = 0;
      const counting = setInterval(() => turns++, 0);
      const sliced = await programAccountsSliced(ledger, TOKEN, byMint(mint.toBase58()), 0);
      clearInterval(counting);
      expect(sliced.accounts).toHaveLength(700);
      expect(sliced.atomic).toBe(false);
      expect(sliced.slot).toBe(slot - 1);
      expect(turns).toBeGreaterThan(0); // timers ran between slices

      const whole = await programAccountsSliced(ledger, TOKEN, byMint(mint.toBase58()), 60_000);
      expect(whole.atomic).toBe(true);
      expect(whole.slot).toBe(ledger.slot);
      expect(addresses(whole.accounts)).toEqual(addresses(sliced.accounts));
    } finally {
      await ledger.close();
    }
  });
  it('moves a token account between sets only when its program, mint or owner changes', () => {
    const index = new AccountIndex(() => new LiteSVM());
    const key = () => Keypair.generate().publicKey;
    const [mintA, mintB, alice, bob] = [key(), key(), key(), key()];
    const account = Keypair.generate().publicKey.toBase58();
    const tokenAccount = (mint: PublicKey, owner: PublicKey, amount: bigint) => {
      const data = Buffer.alloc(TOKEN_ACCOUNT_SIZE);
      mint.toBuffer().copy(data, 0);
      owner.toBuffer().copy(data, 32);
      data.writeBigUInt64LE(amount, 64);
      data[108] = 1; // initialized
      return { owner: TOKEN, lamports: 2_039_280n, data, executable: false };
    };
    const where = () => ({
      program: index.ownedBy(TOKEN),
      mintA: index.tokenAccountsOfMint(mintA.toBase58()),
      mintB: index.tokenAccountsOfMint(mintB.toBase58()),
      alice: index.tokenAccountsOfOwner(alice.toBase58()),
      bob: index.tokenAccountsOfOwner(bob.toBase58()),
    });
    index.update(account, tokenAccount(mintA, alice, 5n));
    index.update(account, tokenAccount(mintA, alice, 4n)); // a transfer: rewritten in place
    expect(where()).toEqual({ program: [account], mintA: [account], mintB: [], alice: [account], bob: [] });
    index.update(account, tokenAccount(mintA, bob, 4n)); // same mint, new owner
    expect(where()).toEqual({ program: [account], mintA: [account], mintB: [], alice: [], bob: [account] });
    index.update(account, tokenAccount(mintB, bob, 4n)); // same owner, new mint
    expect(where()).toEqual({ program: [account], mintA: [], mintB: [account], alice: [], bob: [account] });
    const closedInPlace = tokenAccount(mintB, bob, 0n);
    closedInPlace.data[108] = 0; // uninitialized: still the program's, no longer a token account
    index.update(account, closedInPlace);
    expect(where()).toEqual({ program: [account], mintA: [], mintB: [], alice: [], bob: [] });
    index.update(account, null);
    expect(where()).toEqual({ program: [], mintA: [], mintB: [], alice: [], bob: [] });
  });
});
