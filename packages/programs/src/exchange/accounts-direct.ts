/**
 * The market and config accounts read and written at their fixed offsets, for what a settle
 * does with them in every transaction (issue 31, thirteenth pass: through kit's codecs, decoding
 * the config and the market and encoding the market again took ~8 % of a settle's handler). Only
 * the common case: well-formed data, in-range values. Anything else answers null and the caller
 * uses the declared layout (accounts.ts), so every refusal keeps its exact error and message;
 * test/exchange/accounts-direct.test.ts checks both paths give the same values and bytes.
 */
import { PublicKey } from '@solana/web3.js';
import type { AccountLayout } from '../shared/layout.js';
import { bytesOf } from '../solana/legacy-message.js';
import type { ClobMarketAccount, ClobMarketStatus, ClobOutcome, ExchangeConfigAccount } from './accounts.js';

type Layout = Pick<AccountLayout<never>, 'size' | 'discriminator'> & { offsets: Readonly<Record<string, number>> };

const STATUSES: readonly ClobMarketStatus[] = ['active', 'paused', 'resolved'];
const OUTCOMES: readonly (ClobOutcome | null)[] = [null, 'yes', 'no'];
const U64_MAX = 2n ** 64n - 1n;
const I64_MIN = -(2n ** 63n);
const I64_MAX = 2n ** 63n - 1n;

function view(data: Uint8Array, l: Layout): Buffer | null {
  if (data.length !== l.size) return null;
  const b = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return b.subarray(0, 8).equals(l.discriminator) ? b : null;
}

const key = (b: Buffer, at: number) => new PublicKey(b.subarray(at, at + 32));

export function readClobMarket(data: Uint8Array, l: Layout): ClobMarketAccount | null {
  const b = view(data, l);
  if (!b) return null;
  const o = l.offsets;
  const status = STATUSES[b[o.status!]!];
  const outcome = OUTCOMES[b[o.outcome!]!];
  if (status === undefined || outcome === undefined) return null;
  return {
    marketUuid: Buffer.from(b.subarray(o.marketUuid!, o.marketUuid! + 16)),
    yesMint: key(b, o.yesMint!),
    noMint: key(b, o.noMint!),
    vault: key(b, o.vault!),
    completeSets: b.readBigUInt64LE(o.completeSets!),
    createdAt: b.readBigInt64LE(o.createdAt!),
    resolvedAt: b.readBigInt64LE(o.resolvedAt!),
    status,
    outcome,
    bump: b[o.bump!]!,
  };
}

const isBigIntIn = (v: unknown, lo: bigint, hi: bigint): v is bigint => typeof v === 'bigint' && v >= lo && v <= hi;

export function writeClobMarket(a: ClobMarketAccount, l: Layout): Buffer | null {
  const status = STATUSES.indexOf(a.status);
  const outcome = OUTCOMES.indexOf(a.outcome);
  if (
    status < 0 ||
    outcome < 0 ||
    !(a.marketUuid instanceof Uint8Array) ||
    a.marketUuid.length !== 16 ||
    !isBigIntIn(a.completeSets, 0n, U64_MAX) ||
    !isBigIntIn(a.createdAt, I64_MIN, I64_MAX) ||
    !isBigIntIn(a.resolvedAt, I64_MIN, I64_MAX) ||
    !Number.isInteger(a.bump) ||
    a.bump < 0 ||
    a.bump > 255 ||
    ![a.yesMint, a.noMint, a.vault].every((k) => k instanceof PublicKey)
  )
    return null;
  const o = l.offsets;
  const b = Buffer.alloc(l.size);
  l.discriminator.copy(b, 0);
  b.set(a.marketUuid, o.marketUuid);
  b.set(bytesOf(a.yesMint), o.yesMint); // bytes kept per key object: toBytes runs bn.js
  b.set(bytesOf(a.noMint), o.noMint);
  b.set(bytesOf(a.vault), o.vault);
  b.writeBigUInt64LE(a.completeSets, o.completeSets);
  b.writeBigInt64LE(a.createdAt, o.createdAt);
  b.writeBigInt64LE(a.resolvedAt, o.resolvedAt);
  b[o.status!] = status;
  b[o.outcome!] = outcome;
  b[o.bump!] = a.bump;
  return b;
}

export function readExchangeConfig(data: Uint8Array, l: Layout): ExchangeConfigAccount | null {
  const b = view(data, l);
  if (!b) return null;
  const o = l.offsets;
  return {
    operator: key(b, o.operator!),
    usdcMint: key(b, o.usdcMint!),
    feeWallet: key(b, o.feeWallet!),
    takerFeeBps: b.readUInt16LE(o.takerFeeBps!),
    makerRebateBps: b.readUInt16LE(o.makerRebateBps!),
    bump: b[o.bump!]!,
  };
}
