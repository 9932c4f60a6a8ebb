/**
 * The market and config read and written at their offsets (accounts-direct.ts) against the
 * declared layouts: the same values and bytes for random well-formed accounts, and for anything
 * else the layout's own answer (its exact error), since the direct path steps aside.
 */
import { randomBytes } from 'node:crypto';
import { Keypair } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  CLOB_MARKET_LAYOUT,
  CLOB_MARKET_STATUSES,
  CLOB_OUTCOMES,
  type ClobMarketAccount,
  decodeClobMarket,
  decodeExchangeConfig,
  encodeClobMarket,
  EXCHANGE_CONFIG_LAYOUT,
} from '../../src/index.js';

const key = () => Keypair.generate().publicKey;
const u64 = () => randomBytes(8).readBigUInt64LE();
const i64 = () => randomBytes(8).readBigInt64LE();
const pick = <T>(xs: readonly T[]) => xs[randomBytes(1)[0]! % xs.length]!;

function market(): ClobMarketAccount {
  return {
    marketUuid: randomBytes(16),
    yesMint: key(),
    noMint: key(),
    vault: key(),
    completeSets: pick([0n, 2n ** 64n - 1n, u64()]),
    createdAt: pick([-(2n ** 63n), 2n ** 63n - 1n, i64()]),
    resolvedAt: i64(),
    status: pick(CLOB_MARKET_STATUSES),
    outcome: pick(CLOB_OUTCOMES),
    bump: randomBytes(1)[0]!,
  };
}

const outcome = (f: () => unknown) => {
  try {
    return { value: f() };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  }
};

describe('direct account codecs', () => {
  it('encode and decode a market as the layout does', () => {
    for (let i = 0; i < 200; i++) {
      const m = market();
      const bytes = encodeClobMarket(m);
      expect(bytes.equals(CLOB_MARKET_LAYOUT.encode(m))).toBe(true);
      expect(decodeClobMarket(bytes)).toEqual(CLOB_MARKET_LAYOUT.decode(bytes));
      expect(decodeClobMarket(bytes)).toEqual(m);
    }
  });

  it('decode a config as the layout does', () => {
    for (let i = 0; i < 50; i++) {
      const data = Buffer.concat([EXCHANGE_CONFIG_LAYOUT.discriminator, randomBytes(EXCHANGE_CONFIG_LAYOUT.size - 8)]);
      expect(decodeExchangeConfig(data)).toEqual(EXCHANGE_CONFIG_LAYOUT.decode(data));
    }
  });

  it('refuse what the layout refuses, with its errors', () => {
    const good = encodeClobMarket(market());
    const bad: Uint8Array[] = [good.subarray(1), Buffer.concat([good, Buffer.alloc(1)]), Buffer.alloc(good.length)];
    for (const field of ['status', 'outcome'] as const) {
      const b = Buffer.from(good);
      b[CLOB_MARKET_LAYOUT.offsets[field]] = 3;
      bad.push(b);
    }
    for (const data of bad) {
      const direct = outcome(() => decodeClobMarket(data));
      expect(direct.error).toBeDefined();
      expect(direct).toEqual(outcome(() => CLOB_MARKET_LAYOUT.decode(data)));
    }
    expect(outcome(() => decodeExchangeConfig(Buffer.alloc(EXCHANGE_CONFIG_LAYOUT.size))).error).toBeDefined();
    const odd: Partial<ClobMarketAccount>[] = [
      { completeSets: -1n },
      { completeSets: 2n ** 64n },
      { createdAt: 2n ** 63n },
      { status: 'closed' as never },
      { outcome: 'maybe' as never },
      { bump: 256 },
      { marketUuid: Buffer.alloc(15) },
      { completeSets: 5 as never },
    ];
    for (const change of odd) {
      const m = { ...market(), ...change };
      expect(outcome(() => encodeClobMarket(m))).toEqual(outcome(() => CLOB_MARKET_LAYOUT.encode(m)));
    }
  });
});
