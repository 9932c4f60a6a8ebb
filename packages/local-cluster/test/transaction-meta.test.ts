// The record's meta column (issue 31): written compactly, read back to the same record, and metas
// written before (full signers and post token balances) still read as they were written.
import { describe, expect, it } from 'vitest';
import { metaJson, parseMeta, type RecordMeta } from '../src/transaction-meta.js';
import type { TokenBalance } from '../src/token-balances.js';

const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const keys = [
  'Payer1111111111111111111111111111111111111',
  'Src11111111111111111111111111111111111111',
  'Dst11111111111111111111111111111111111111',
  TOKEN,
];
const bal = (accountIndex: number, amount: bigint, over: Partial<TokenBalance> = {}): TokenBalance => ({
  accountIndex,
  mint: 'Mint1111111111111111111111111111111111111',
  owner: `Owner${accountIndex}`,
  programId: TOKEN,
  amount,
  decimals: 6,
  ...over,
});

function meta(pre: TokenBalance[], post: TokenBalance[], signers = keys.slice(0, 1)): RecordMeta {
  return {
    logs: [`Program ${TOKEN} invoke [1]`, `Program ${TOKEN} success`],
    fee: 5000n,
    unitsConsumed: 76,
    accountKeys: keys,
    signers,
    writable: [true, true, true, false],
    preBalances: [10_000_000_000n, 2_039_280n, 0n, 1_141_440n],
    postBalances: [9_999_995_000n, 2_039_280n, 2_039_280n, 1_141_440n],
    preTokenBalances: pre,
    postTokenBalances: post,
  };
}

describe('transaction meta', () => {
  it.each([
    ['a transfer', [bal(1, 10n ** 12n), bal(2, 1n)], [bal(1, 10n ** 12n - 1n), bal(2, 2n)]],
    ['an account created', [bal(1, 5n)], [bal(1, 4n), bal(2, 1n)]],
    ['an account closed', [bal(1, 5n), bal(2, 0n)], [bal(1, 5n)]],
    ['the owner changed', [bal(1, 5n)], [bal(1, 5n, { owner: 'Other' })]],
    ['the mint changed, decimals too', [bal(1, 5n)], [bal(1, 5n, { mint: 'Mint2', decimals: 9 })]],
    ['none', [], []],
  ])('reads back what it wrote: %s', (_name, pre, post) => {
    const m = meta(pre, post);
    expect(parseMeta(metaJson(m))).toEqual(m);
    // The same JSON key order as written before, so every answer built from it is the same text.
    expect(JSON.stringify(parseMeta(metaJson(m)), (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))).toBe(
      JSON.stringify(m, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)),
    );
  });

  it('is smaller than the full form for a transfer', () => {
    const m = meta([bal(1, 10n ** 12n), bal(2, 1n)], [bal(1, 10n ** 12n - 1n), bal(2, 2n)]);
    const json = metaJson(m);
    expect(JSON.parse(json)).toMatchObject({
      signers: 1,
      postTokenBalances: [
        { p: 0, amount: '999999999999' },
        { p: 1, amount: '2' },
      ],
    });
  });

  it('keeps signers in full when they are not the first keys', () => {
    const m = meta([], [], [keys[2]!]);
    expect(JSON.parse(metaJson(m))).toMatchObject({ signers: [keys[2]] });
    expect(parseMeta(metaJson(m))).toEqual(m);
  });

  it('reads a meta written in the full form', () => {
    const m = meta([bal(1, 10n ** 12n), bal(2, 1n)], [bal(1, 10n ** 12n - 1n), bal(2, 2n)], keys.slice(0, 2));
    const str = (v: bigint) => v.toString();
    const tokens = (list: TokenBalance[]) => list.map((t) => ({ ...t, amount: t.amount.toString() }));
    // The writer every ledger used before this form.
    const full = JSON.stringify({
      logs: m.logs,
      fee: m.fee.toString(),
      unitsConsumed: m.unitsConsumed,
      accountKeys: m.accountKeys,
      signers: m.signers,
      writable: m.writable,
      preBalances: m.preBalances.map(str),
      postBalances: m.postBalances.map(str),
      preTokenBalances: tokens(m.preTokenBalances),
      postTokenBalances: tokens(m.postTokenBalances),
    });
    expect(parseMeta(full)).toEqual(m);
  });
});
