/**
 * bigint-buffer 1.1.5 (CVE-2025-3194, no fixed release) reaches us only inside @solana/spl-token's
 * layouts, through @solana/buffer-layout-utils. Its native code aborts the process when handed
 * anything but a Buffer and overruns a stack buffer when asked for a wide unaligned width; those
 * layouts only ever hand it a fresh Buffer of at most 8 bytes to decode and a width of 8 to encode.
 * These tests keep our code on that path: no direct use, no spl-token function nobody has
 * reviewed, and decoders that check an account's size before decoding it. If one fails, re-do
 * the review in docs/dependencies.md ("bigint-buffer") before changing the test.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AccountLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import type { AccountSnapshot } from '../../src/chain/chain-client.js';
import { decodeTokenAccountSnapshot } from '../../src/services/token-account-index.js';

const REPO = new URL('../..', import.meta.url).pathname;
const REVIEW = 'see docs/dependencies.md, "bigint-buffer"';

/**
 * What our production code takes from @solana/spl-token, each checked for what it hands
 * bigint-buffer. A new name fails the test below until someone has checked it the same way.
 */
const REVIEWED_SPL_TOKEN_IMPORTS: Record<string, string> = {
  TOKEN_PROGRAM_ID: 'a constant',
  ASSOCIATED_TOKEN_PROGRAM_ID: 'a constant',
  ACCOUNT_SIZE: 'a constant',
  MINT_SIZE: 'a constant',
  getAssociatedTokenAddressSync: 'a PDA, no integers',
  createAssociatedTokenAccountIdempotentInstruction: 'a one-byte instruction, no integers',
  createInitializeMint2Instruction: 'a u8 and public keys, no bigint-buffer',
  createTransferInstruction: 'encodes the amount as a u64: toBufferLE(amount, 8), an aligned width',
  createTransferCheckedInstruction: 'encodes the amount as a u64: toBufferLE(amount, 8), an aligned width',
  createMintToInstruction: 'encodes the amount as a u64: toBufferLE(amount, 8), an aligned width',
  createBurnInstruction: 'encodes the amount as a u64: toBufferLE(amount, 8), an aligned width',
  AccountLayout: 'decodes u64s: toBigIntLE(an 8-byte Buffer); our decoders check the size first',
  MintLayout: 'decodes the supply: toBigIntLE(an 8-byte Buffer); state-io.ts checks the size first',
};

/** Source files under the given top-level folders (no dependencies, no build output). */
function sourceFiles(roots: string[], skip: (path: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return; // a root that does not exist (yet): packages/ before the move
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!['node_modules', 'dist', 'data', 'coverage'].includes(entry.name)) walk(path);
      } else if (/\.[cm]?[jt]s$/.test(entry.name) && !skip(path)) {
        out.push(path);
      }
    }
  };
  for (const root of roots) walk(join(REPO, root));
  return out;
}

/** The names a file imports from @solana/spl-token (aliases resolved to the exported name). */
function splTokenImports(source: string): string[] {
  const importList = /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'@solana\/spl-token'/g;
  const lists = [...source.matchAll(importList)].map((m) => m[1]!);
  return lists
    .flatMap((list) => list.split(','))
    .map(
      (part) =>
        part
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0]!,
    )
    .filter((name) => name !== '');
}

/** A snapshot of a 165-byte SPL token account holding `amount`. */
function tokenAccount(amount: bigint, overrides: Partial<AccountSnapshot> = {}): AccountSnapshot {
  const data = Buffer.alloc(AccountLayout.span);
  Keypair.generate().publicKey.toBuffer().copy(data, 0); // mint
  Keypair.generate().publicKey.toBuffer().copy(data, 32); // owner
  data.writeBigUInt64LE(amount, 64);
  data[108] = 1; // state: initialized
  return {
    address: Keypair.generate().publicKey.toBase58(),
    owner: TOKEN_PROGRAM_ID.toBase58(),
    lamports: 2_039_280n,
    data,
    executable: false,
    slot: 7,
    ...overrides,
  };
}

const DECODERS = [
  // the one token-account decoder (@pmx/programs decodeTokenAccount) behind the owner check every reader uses
  ['decodeTokenAccountSnapshot (src/services/token-account-index.ts)', decodeTokenAccountSnapshot],
] as const;

describe('bigint-buffer (CVE-2025-3194) stays behind fixed-width layouts', () => {
  it('is imported by none of our modules, nor is @solana/buffer-layout-utils', () => {
    const direct = /(?:from\s+|require\(\s*|import\(\s*)'(?:bigint-buffer|@solana\/buffer-layout-utils)(?:\/[^']*)?'/;
    const offenders = sourceFiles(['src', 'jobs', 'db', 'config', 'packages', 'scripts', 'bench', 'test'])
      .filter((path) => direct.test(readFileSync(path, 'utf8')))
      .map((path) => relative(REPO, path));
    expect(offenders, `direct use of bigint-buffer can hand it untrusted input (${REVIEW})`).toEqual([]);
  });

  it('production code imports from @solana/spl-token only names reviewed for what they hand bigint-buffer', () => {
    const unreviewed = new Map<string, string[]>();
    const isTestOrBench = (path: string) => /[/\\](test|bench)[/\\]/.test(relative(REPO, path));
    for (const path of sourceFiles(['src', 'jobs', 'db', 'config', 'packages'], isTestOrBench)) {
      for (const name of splTokenImports(readFileSync(path, 'utf8'))) {
        if (name in REVIEWED_SPL_TOKEN_IMPORTS) continue;
        unreviewed.set(name, [...(unreviewed.get(name) ?? []), relative(REPO, path)]);
      }
    }
    const why = `check what these hand bigint-buffer, then add them to REVIEWED_SPL_TOKEN_IMPORTS (${REVIEW})`;
    expect(Object.fromEntries(unreviewed), why).toEqual({});
  });

  it.each(DECODERS)('%s refuses any size but 165 bytes, and other owners, before decoding', (_name, decode) => {
    for (const size of [0, 7, 64, 72, 164, 166, 10_000]) {
      expect(decode(tokenAccount(0n, { data: Buffer.alloc(size) })), `${size} bytes`).toBeNull();
    }
    expect(decode(tokenAccount(1n, { owner: Keypair.generate().publicKey.toBase58() })), 'another owner').toBeNull();
  });

  it.each(DECODERS)('%s reads the u64 amount as Buffer.readBigUInt64LE does, up to 2^64 - 1', (_name, decode) => {
    for (const amount of [0n, 1n, 255n, 256n, 2n ** 53n + 1n, 2n ** 64n - 1n]) {
      const snapshot = tokenAccount(amount);
      expect(decode(snapshot)?.amount, `amount ${amount}`).toBe(snapshot.data.readBigUInt64LE(64));
    }
  });

  it('AccountLayout.decode of any short account throws a RangeError or decodes, and the process lives on', () => {
    // Should a size check ever go missing: every u64 cut short is still a Buffer (of 0 to 7 bytes)
    // by the time bigint-buffer sees it, so the worst is an exception or a misread, never an abort.
    // (A misread is why the decoders above check the size: 133 to 164 bytes decode without error.)
    const outcomes = new Set<string>();
    for (let size = 0; size < AccountLayout.span; size++) {
      try {
        AccountLayout.decode(Buffer.alloc(size));
        outcomes.add('decoded');
      } catch (err) {
        expect(err, `${size} bytes`).toBeInstanceOf(RangeError);
        outcomes.add('RangeError');
      }
    }
    expect([...outcomes].sort()).toEqual(['RangeError', 'decoded']);
  });
});
