/**
 * The embedded ledger's secondary indexes, as a validator keeps them: the addresses of every
 * account owned by each indexed program, and the SPL token accounts by mint and by owner.
 * LiteSVM can only list a program's accounts by scanning every account it holds and copying the
 * matches out in one synchronous call (1 s for 20,000 token accounts through its public wrapper,
 * blocking the daemon); with these sets a query visits only what it asks for, and callers can
 * read the accounts in slices, yielding in between.
 *
 * Built at open by one native scan per indexed program (the ledger is not serving yet), then kept
 * current from the post-state of every account a landed transaction changed (and every dev
 * write). Programs not indexed (none the daemon uses) are answered by a scan.
 */
import type { LiteSVM } from 'litesvm';
import type { StoredAccount } from './svm-accounts.js';
import { addressBytes, addressText, native } from './svm-raw.js';
import { TOKEN_ACCOUNT_SIZE } from '@pmx/programs';
import { TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from './token-balances.js';

interface Entry {
  program: string;
  /** Token accounts only: their mint and owner. */
  mint?: string;
  owner?: string;
}

function addTo(map: Map<string, Set<string>>, key: string, address: string): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(address);
}

function removeFrom(map: Map<string, Set<string>>, key: string | undefined, address: string): void {
  if (key === undefined) return;
  const set = map.get(key);
  if (!set) return;
  set.delete(address);
  if (set.size === 0) map.delete(key);
}

/** An initialized token account's mint and owner (the layout's first 64 bytes), else null. */
function tokenKeys(program: string, data: Uint8Array): { mint: string; owner: string } | null {
  if ((program !== TOKEN_PROGRAM && program !== TOKEN_2022_PROGRAM) || data.length < TOKEN_ACCOUNT_SIZE) return null;
  // Mints are 82 bytes (Token-2022 mints with extensions are longer but carry the account type
  // at byte 165: 1 = mint); state 0 is an uninitialized account.
  if (data[108] === 0 || (data.length > TOKEN_ACCOUNT_SIZE && data[TOKEN_ACCOUNT_SIZE] === 1)) return null;
  return { mint: addressText(data.subarray(0, 32)), owner: addressText(data.subarray(32, 64)) };
}

export class AccountIndex {
  private readonly entries = new Map<string, Entry>();
  private readonly byProgram = new Map<string, Set<string>>();
  private readonly byMint = new Map<string, Set<string>>();
  private readonly byTokenOwner = new Map<string, Set<string>>();
  private readonly programs = new Set<string>();

  constructor(
    private readonly svm: () => LiteSVM,
    programs: Iterable<string> = [TOKEN_PROGRAM, TOKEN_2022_PROGRAM],
  ) {
    for (const p of programs) this.addProgram(p);
  }

  /** Starts indexing `program`'s accounts (one scan now; kept current from then on). */
  addProgram(program: string): void {
    if (this.programs.has(program)) return;
    this.programs.add(program);
    for (const found of native(this.svm()).getProgramAccounts(addressBytes(program))) {
      const account = found.account();
      const data = account.data();
      if (account.lamports() === 0n && data.length === 0) continue;
      this.add(addressText(found.address), program, data);
    }
  }

  isIndexed(program: string): boolean {
    return this.programs.has(program);
  }

  /** Records an account's new state (null: closed). */
  update(address: string, account: StoredAccount | null): void {
    const old = this.entries.get(address);
    const keep = account !== null && this.programs.has(account.owner) && (account.lamports > 0n || account.data.length > 0);
    if (old) {
      // A program's state account rewritten in place (a market after a trade): nothing moves.
      if (keep && old.program === account.owner && old.mint === undefined && !tokenKeys(account.owner, account.data)) return;
      this.entries.delete(address);
      removeFrom(this.byProgram, old.program, address);
      removeFrom(this.byMint, old.mint, address);
      removeFrom(this.byTokenOwner, old.owner, address);
    }
    if (keep) this.add(address, account.owner, account.data);
  }

  /** Addresses of `program`'s accounts, or null when the program is not indexed. */
  ownedBy(program: string): string[] | null {
    if (!this.programs.has(program)) return null;
    return [...(this.byProgram.get(program) ?? [])];
  }

  tokenAccountsOfMint(mint: string): string[] {
    return [...(this.byMint.get(mint) ?? [])];
  }

  tokenAccountsOfOwner(owner: string): string[] {
    return [...(this.byTokenOwner.get(owner) ?? [])];
  }

  private add(address: string, program: string, data: Uint8Array): void {
    const token = tokenKeys(program, data);
    this.entries.set(address, { program, ...(token ?? {}) });
    addTo(this.byProgram, program, address);
    if (token) {
      addTo(this.byMint, token.mint, address);
      addTo(this.byTokenOwner, token.owner, address);
    }
  }
}
