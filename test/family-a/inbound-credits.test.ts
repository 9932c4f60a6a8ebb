// Pure rules of issue 8 item 2: which credits of a transaction reached a platform wallet, who sent
// them, and what becomes of those nobody honoured.
import { describe, expect, it } from 'vitest';
import { decideUnhonoured, inboundCredits, SOL, type CreditSource, type InboundCredit } from '../../src/domain/family-a/inbound-credits.js';

const ours = new Set(['yesWallet', 'noWallet', 'platform']);
const isOurs = (w: string) => ours.has(w);
const tok = (accountIndex: number, account: string, owner: string, mint: string, pre: bigint, post: bigint) => ({
  accountIndex,
  account,
  owner,
  mint,
  pre,
  post,
});

describe('inbound credits', () => {
  it('finds every credit to a platform wallet with its one sender (two markets paid in one transaction)', () => {
    // Alice pays 1 USDC to market A's YES wallet and 2 USDC to market B's NO wallet, in one transaction.
    const tx: CreditSource = {
      err: null,
      signers: ['alice'],
      tokenBalances: [
        tok(1, 'aliceUsdc', 'alice', 'USDC', 10_000_000n, 7_000_000n),
        tok(2, 'yesUsdc', 'yesWallet', 'USDC', 0n, 1_000_000n),
        tok(3, 'noUsdc', 'noWallet', 'USDC', 5n, 2_000_005n),
      ],
      lamportBalances: [
        { account: 'alice', pre: 10n ** 9n, post: 10n ** 9n - 5_000n },
        { account: 'aliceUsdc', pre: 1n, post: 1n },
      ],
    };
    expect(inboundCredits(tx, isOurs)).toEqual([
      {
        index: 2,
        account: 'yesUsdc',
        asset: 'USDC',
        owner: 'yesWallet',
        amount: 1_000_000n,
        sender: { account: 'aliceUsdc', owner: 'alice' },
      },
      {
        index: 3,
        account: 'noUsdc',
        asset: 'USDC',
        owner: 'noWallet',
        amount: 2_000_000n,
        sender: { account: 'aliceUsdc', owner: 'alice' },
      },
    ]);
  });

  it('names SOL credits and their signer, and no sender when several owners sent the asset', () => {
    // The creator pays 0.3 SOL (plus the 5,000-lamport fee); Bob and Carol both send USDC to the platform.
    const tx: CreditSource = {
      err: null,
      signers: ['creator', 'bob', 'carol'],
      tokenBalances: [
        tok(4, 'bobUsdc', 'bob', 'USDC', 10n, 5n),
        tok(5, 'carolUsdc', 'carol', 'USDC', 10n, 5n),
        tok(6, 'platUsdc', 'platform', 'USDC', 0n, 10n),
      ],
      lamportBalances: [
        { account: 'creator', pre: 1_000_000_000n, post: 699_995_000n },
        { account: 'bob', pre: 5n, post: 5n },
        { account: 'carol', pre: 5n, post: 5n },
        { account: 'platform', pre: 50n, post: 300_000_050n },
      ],
    };
    const credits = inboundCredits(tx, isOurs);
    expect(credits).toEqual([
      {
        index: 3,
        account: 'platform',
        asset: SOL,
        owner: 'platform',
        amount: 300_000_000n,
        sender: { account: 'creator', owner: 'creator' },
      },
      { index: 6, account: 'platUsdc', asset: 'USDC', owner: 'platform', amount: 10n, sender: null },
    ]);
  });

  it('sees nothing in a failed transaction', () => {
    expect(
      inboundCredits(
        {
          err: { InstructionError: [0, 'x'] },
          signers: ['a'],
          tokenBalances: [tok(1, 'x', 'platform', 'USDC', 0n, 5n)],
          lamportBalances: [],
        },
        isOurs,
      ),
    ).toEqual([]);
  });
});

describe('what becomes of an unhonoured credit', () => {
  const credit: InboundCredit = {
    index: 2,
    account: 'yesUsdc',
    asset: 'USDC',
    owner: 'yesWallet',
    amount: 999_999n,
    sender: { account: 'aliceUsdc', owner: 'alice' },
  };
  const grace = 600_000;

  it('holds a credit that a quote can still honour until the latest quote expiry plus the grace', () => {
    expect(
      decideUnhonoured(credit, { kind: 'trade', marketStatus: 'live', live: true, quoteExpiriesMs: [1_000, 5_000] }, grace, false),
    ).toMatchObject({ state: 'held', refundAfterMs: 605_000 });
    expect(decideUnhonoured(credit, { kind: 'creation', deadlinesMs: [9_000] }, grace, false)).toMatchObject({
      state: 'held',
      refundAfterMs: 609_000,
    });
  });

  it('refunds at once what nothing can honour: short by one raw unit, resolved market, consumed signature, wrong asset', () => {
    expect(decideUnhonoured(credit, { kind: 'trade', marketStatus: 'live', live: true, quoteExpiriesMs: [] }, grace, false)).toMatchObject({
      state: 'refunded',
      reason: /no quote of the sender/,
    });
    expect(
      decideUnhonoured(credit, { kind: 'trade', marketStatus: 'resolved', live: false, quoteExpiriesMs: [5_000] }, grace, false),
    ).toMatchObject({ state: 'refunded', reason: /market is resolved/ });
    expect(
      decideUnhonoured(credit, { kind: 'trade', marketStatus: 'live', live: true, quoteExpiriesMs: [5_000] }, grace, true),
    ).toMatchObject({ state: 'refunded', reason: /honoured for another transfer/ });
    expect(decideUnhonoured(credit, { kind: 'creation', deadlinesMs: [] }, grace, false)).toMatchObject({ state: 'refunded' });
    expect(decideUnhonoured(credit, { kind: 'none', why: 'SOL sent to an option wallet' }, grace, false)).toEqual({
      state: 'refunded',
      reason: 'SOL sent to an option wallet',
    });
  });

  it("credits winning tokens to the wallet's claim, and refunds tokens no claim can take", () => {
    expect(decideUnhonoured(credit, { kind: 'claim', resolved: true, winning: true, claimed: false }, grace, false).state).toBe('credited');
    expect(decideUnhonoured(credit, { kind: 'claim', resolved: true, winning: true, claimed: false }, grace, true).state).toBe('credited');
    expect(decideUnhonoured(credit, { kind: 'claim', resolved: true, winning: true, claimed: true }, grace, false)).toMatchObject({
      state: 'refunded',
      reason: /already claimed/,
    });
    expect(decideUnhonoured(credit, { kind: 'claim', resolved: true, winning: false, claimed: false }, grace, false)).toMatchObject({
      state: 'refunded',
      reason: /losing/,
    });
    expect(decideUnhonoured(credit, { kind: 'claim', resolved: false, winning: false, claimed: false }, grace, false)).toMatchObject({
      state: 'refunded',
      reason: /before the market resolved/,
    });
  });

  it('leaves a credit without a single sender to an operator', () => {
    expect(
      decideUnhonoured({ ...credit, sender: null }, { kind: 'trade', marketStatus: 'live', live: true, quoteExpiriesMs: [] }, grace, false),
    ).toMatchObject({ state: 'manual', reason: /no single account/ });
  });
});
