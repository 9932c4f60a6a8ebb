// Pure Family A rules: money conversions and rounding, the X-PAYMENT codec, quote expiry, transfer checks.
import { describe, expect, it } from 'vitest';
import { claimPayout, humanToRaw, rawToHuman, tokensForUsdc, usdcForTokens } from '../../src/domain/family-a/money.js';
import { decodePaymentHeader, encodePaymentHeader } from '../../src/domain/family-a/payment-payload.js';
import { checkQuoteAt } from '../../src/domain/family-a/quote.js';
import { isValidSlug, searchTerms, slugify } from '../../src/domain/family-a/slug.js';
import { verifyLamportTransfer, verifyTransfer, type TokenDelta } from '../../src/domain/family-a/transfer-verification.js';

describe('money', () => {
  it('converts human amounts exactly and refuses more than 6 decimals', () => {
    expect(humanToRaw(0.01)).toBe(10_000n);
    expect(humanToRaw(1_000_000)).toBe(1_000_000_000_000n);
    expect(humanToRaw(0.1 + 0.2)).toBe(300_000n);
    expect(() => humanToRaw(0.0000001)).toThrow(/decimals/);
    expect(rawToHuman(1_500_001n)).toBe(1.500001);
  });
  it('floors what the caller receives', () => {
    expect(tokensForUsdc(1_000_000n, 500n)).toBe(2_000_000_000n);
    expect(tokensForUsdc(1n, 3n)).toBe(333_333n);
    expect(usdcForTokens(1_999n, 500n)).toBe(0n);
    expect(claimPayout(100_000_000_000n, 100_000n)).toBe(100_000_000n);
    expect(claimPayout(999n, 100_000n)).toBe(0n);
  });
  it('refuses a token amount past u64 instead of letting an encoder wrap it', () => {
    // 10^12 raw USDC (the largest buy) at 1 raw per token: 10^18 tokens, within u64 (1.8 × 10^19).
    expect(tokensForUsdc(1_000_000_000_000n, 1n)).toBe(10n ** 18n);
    expect(() => tokensForUsdc(2n ** 64n, 1_000_000n)).toThrow(/more tokens than a token account can hold/);
  });
});

describe('X-PAYMENT', () => {
  const payload = {
    x402Version: 1,
    network: 'solana-localnet',
    txHash: '5'.repeat(88),
    amount: 1,
    payer: 'A'.repeat(44),
    payTo: 'B'.repeat(44),
    asset: 'C'.repeat(44),
    quoteIssuedAt: new Date().toISOString(),
  };
  it('round-trips', () => {
    expect(decodePaymentHeader(encodePaymentHeader(payload))).toMatchObject(payload);
  });
  it('refuses non-base64, non-JSON, wrong version and missing fields', () => {
    expect(() => decodePaymentHeader('!!')).toThrow(/not base64/);
    expect(() => decodePaymentHeader(Buffer.from('[1]').toString('base64'))).toThrow(/JSON object/);
    expect(() => decodePaymentHeader(encodePaymentHeader({ ...payload, x402Version: 2 }))).toThrow(/x402Version/);
    expect(() => decodePaymentHeader(encodePaymentHeader({ ...payload, txHash: '' }))).toThrow(/txHash/);
    expect(() => decodePaymentHeader(encodePaymentHeader({ ...payload, payer: '0OIl' }))).toThrow(/base58/);
    // base58, but not 64 bytes: a public key, a truncated hash, a 65-byte value.
    for (const txHash of ['5'.repeat(44), '5'.repeat(86), '5'.repeat(89)]) {
      expect(() => decodePaymentHeader(encodePaymentHeader({ ...payload, txHash }))).toThrow(/txHash is not a transaction signature/);
    }
  });
});

describe('quotes and slugs', () => {
  it('expires 120000 ms after issuance', () => {
    expect(checkQuoteAt(0, 120_000)).toBe('ok');
    expect(checkQuoteAt(0, 120_001)).toBe('expired');
    expect(checkQuoteAt(10_000, 8_000)).toBe('before_quote');
  });
  it('makes URL-safe slugs that never look like Family B ids', () => {
    expect(slugify('Will BTC hit $100k?')).toBe('will-btc-hit-100k');
    expect(isValidSlug('12345')).toBe(false);
    // Names that slugify to a number get a prefix: /v2/markets/2026 is Family B's market 2026, 1e10 a malformed id.
    expect(slugify('2026')).toBe('market-2026');
    expect(slugify('1E10!')).toBe('market-1e10');
    expect(slugify('0x1F')).toBe('market-0x1f');
    expect(slugify('2026 World Cup')).toBe('2026-world-cup');
    for (const slug of ['1e10', '2e-5', '0x1f']) expect(isValidSlug(slug)).toBe(false);
    expect(isValidSlug('2026-world-cup')).toBe(true);
    expect(searchTerms('Crème "brûlée" OR *')).toEqual(['crème', 'brûlée', 'or']);
  });
});

describe('transfer verification', () => {
  const d = (account: string, owner: string, mint: string, pre: bigint, post: bigint): TokenDelta => ({ account, owner, mint, pre, post });
  const want = { mint: 'USDC', recipientOwner: 'opt', recipientAccount: 'optAta', payer: 'me', minAmount: 100n };
  it('accepts a transfer of at least the amount from the payer to the recipient ATA', () => {
    expect(
      verifyTransfer(
        { err: null, signers: ['me'], tokenBalances: [d('mine', 'me', 'USDC', 500n, 400n), d('optAta', 'opt', 'USDC', 0n, 100n)] },
        want,
      ),
    ).toEqual({ ok: true, moved: 100n });
  });
  it('names each failure', () => {
    const reason = (tb: TokenDelta[], signers = ['me'], err: unknown = null) => {
      const r = verifyTransfer({ err, signers, tokenBalances: tb }, want);
      return r.ok ? 'ok' : r.reason;
    };
    expect(reason([], ['me'], { InstructionError: [0, 'x'] })).toMatch(/failed on chain/);
    expect(reason([d('mine', 'me', 'USDC', 500n, 400n), d('optAta', 'opt', 'USDC', 0n, 99n)])).toMatch(/amount short/);
    expect(reason([d('mine', 'me', 'USDC', 500n, 400n), d('x', 'other', 'USDC', 0n, 100n)])).toMatch(/wrong recipient/);
    expect(reason([d('mine', 'me', 'FAKE', 500n, 400n), d('optFake', 'opt', 'FAKE', 0n, 100n)])).toMatch(/wrong mint/);
    expect(reason([d('theirs', 'them', 'USDC', 500n, 400n), d('optAta', 'opt', 'USDC', 0n, 100n)])).toMatch(/payer mismatch/);
    expect(reason([d('mine', 'me', 'USDC', 500n, 400n), d('optAta', 'opt', 'USDC', 0n, 100n)], ['them'])).toMatch(/payer mismatch/);
    const all = verifyTransfer(
      { err: null, signers: ['me'], tokenBalances: [d('mine', 'me', 'USDC', 500n, 400n), d('optAta', 'opt', 'USDC', 0n, 100n)] },
      { ...want, requireAll: true },
    );
    expect(all.ok ? 'ok' : all.reason).toMatch(/partial transfer: 400/);
    // Trades need the exact amount: 101 moved for a quote of 100 is refused (and not consumed).
    const over = verifyTransfer(
      { err: null, signers: ['me'], tokenBalances: [d('mine', 'me', 'USDC', 500n, 399n), d('optAta', 'opt', 'USDC', 0n, 101n)] },
      { ...want, exact: true },
    );
    expect(over.ok ? 'ok' : over.reason).toMatch(/amount differs from the quote: moved 101 raw units, the quote is for exactly 100/);
    const exact = verifyTransfer(
      { err: null, signers: ['me'], tokenBalances: [d('mine', 'me', 'USDC', 500n, 400n), d('optAta', 'opt', 'USDC', 0n, 100n)] },
      { ...want, exact: true },
    );
    expect(exact).toEqual({ ok: true, moved: 100n });
  });
});

describe('SOL (lamport) payment verification', () => {
  // Worked example: a 0.3 SOL creation fee is 300 000 000 lamports. The creator pays it plus the
  // 5 000-lamport fee, so its balance drops by 300 005 000 while the platform gains 300 000 000.
  const want = { recipient: 'platform', payer: 'creator', minLamports: 300_000_000n };
  const tx = (creatorPost: bigint, platformPost: bigint, signers = ['creator'], err: unknown = null) => ({
    err,
    signers,
    lamportBalances: [
      { account: 'creator', pre: 1_000_000_000n, post: creatorPost },
      { account: 'platform', pre: 50n, post: platformPost },
    ],
  });
  it('accepts the full fee paid by the signer', () => {
    expect(verifyLamportTransfer(tx(699_995_000n, 300_000_050n), want)).toEqual({ ok: true, moved: 300_000_000n });
  });
  it('names each failure', () => {
    const reason = (t: ReturnType<typeof tx>) => {
      const r = verifyLamportTransfer(t, want);
      return r.ok ? 'ok' : r.reason;
    };
    expect(reason(tx(699_995_001n, 300_000_049n))).toMatch(/amount short: moved 299999999 lamports/);
    expect(reason(tx(1_000_000_000n, 50n))).toMatch(/no SOL transfer/);
    expect(reason(tx(699_995_000n, 300_000_050n, ['someone']))).toMatch(/payer mismatch/);
    expect(reason(tx(999_995_000n, 300_000_050n))).toMatch(/payer mismatch/); // the SOL came from elsewhere
    expect(reason(tx(699_995_000n, 300_000_050n, ['creator'], { InstructionError: [0, 'x'] }))).toMatch(/failed on chain/);
  });
});
