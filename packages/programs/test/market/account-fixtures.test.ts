/**
 * The market program's accounts, byte for byte as docs/programs.md ("Accounts") tells an indexer:
 * fixtures written from the document's offset tables (not from the codecs), and the document's
 * tables themselves compared with the code's layouts, so neither can drift from the other.
 */
import { PublicKey } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  CONFIG_LAYOUT,
  MARKET_ACCOUNT_OFFSETS,
  MARKET_LAYOUT,
  decodeConfigAccount,
  decodeMarketAccount,
  encodeConfigAccount,
  encodeMarketAccount,
  type ConfigAccount,
  type MarketAccount,
} from '../../src/market/index.js';
import { docAccountTable, layoutMismatches } from '../doc-tables.js';

const key = (byte: number) => new PublicKey(Buffer.alloc(32, byte));
const hexKey = (byte: number) => byte.toString(16).padStart(2, '0').repeat(32);

/** A zeroed account of `size` bytes with `[offset, hex]` written in. */
function fixture(size: number, parts: [number, string][]): Buffer {
  const b = Buffer.alloc(size);
  for (const [offset, hex] of parts) Buffer.from(hex, 'hex').copy(b, offset);
  return b;
}

describe('Config account (128 bytes)', () => {
  const config: ConfigAccount = {
    admin: key(0x11),
    usdcMint: key(0x22),
    protocolFeeWallet: key(0x33),
    marketCounter: 1_000_000_000n,
    bump: 254,
  };
  const bytes = fixture(128, [
    [0, '9b0caae01efacc82'], // sha256("account:Config")[0..8]
    [8, hexKey(0x11)], // admin
    [40, hexKey(0x22)], // usdc_mint
    [72, hexKey(0x33)], // protocol_fee_wallet
    [104, '00ca9a3b00000000'], // market_counter 1 000 000 000, u64 LE
    [112, 'fe'], // bump 254; 113..128 reserved zeros
  ]);

  it('encodes and decodes the documented bytes', () => {
    expect(encodeConfigAccount(config).toString('hex')).toBe(bytes.toString('hex'));
    expect(decodeConfigAccount(bytes)).toEqual(config);
  });

  it('matches the table in docs/programs.md', () => {
    expect(layoutMismatches(docAccountTable('Market program', 'Config'), CONFIG_LAYOUT)).toEqual([]);
  });
});

describe('Market account (1096 bytes)', () => {
  const market: MarketAccount = {
    marketId: 42n,
    creator: key(0x44),
    vault: key(0x55),
    resolutionTime: 1_900_000_000n,
    createdAt: 1_800_000_000n,
    resolvedAt: -1n,
    tradeFeeBps: 200,
    mode: 'pool',
    status: 'cancelled',
    winningSide: 'NO',
    mintsInitialized: true,
    bump: 253,
    seedAmount: 1_000_000_000n,
    yesReserve: 913_492_705n,
    noReserve: 1_098_000_000n,
    yesSupply: 184_507_295n,
    noSupply: 0n,
    collateral: 1_098_000_000n,
    creatorFeesAccrued: 1_000_000n,
    creatorFeesClaimed: 2n,
    protocolFeesAccrued: 3n,
    protocolFeesClaimed: 4n,
    totalVolume: 100_000_000n,
    title: 'Ünï 🚀',
    description: '',
    yesTicker: 'UP',
    noTicker: 'DOWN',
  };
  const bytes = fixture(1096, [
    [0, 'dbbed53700e3c69a'], // sha256("account:Market")[0..8]
    [8, '2a00000000000000'], // market_id 42
    [16, hexKey(0x44)], // creator
    [48, hexKey(0x55)], // vault
    [80, '00b33f7100000000'], // resolution_time 1 900 000 000, i64 LE
    [88, '00d2496b00000000'], // created_at 1 800 000 000
    [96, 'ffffffffffffffff'], // resolved_at −1 (two's complement)
    [104, 'c800'], // trade_fee_bps 200, u16 LE
    [106, '01'], // mode 1 = Pool
    [107, '02'], // status 2 = cancelled
    [108, '02'], // winning_side 2 = NO
    [109, '01'], // mints_initialized
    [110, 'fd'], // bump 253; 111 is padding
    [112, '00ca9a3b00000000'], // seed_amount 1 000 000 000
    [120, 'e1ca723600000000'], // yes_reserve 913 492 705
    [128, '8026724100000000'], // no_reserve 1 098 000 000
    [136, '9f5bff0a00000000'], // yes_supply 184 507 295
    [144, '0000000000000000'], // no_supply 0
    [152, '8026724100000000'], // collateral 1 098 000 000
    [160, '40420f0000000000'], // creator_fees_accrued 1 000 000
    [168, '0200000000000000'], // creator_fees_claimed 2
    [176, '0300000000000000'], // protocol_fees_accrued 3
    [184, '0400000000000000'], // protocol_fees_claimed 4
    [192, '00e1f50500000000'], // total_volume 100 000 000
    [200, '0a000000c39c6ec3af20f09f9a80'], // title: u32 byte length 10, UTF-8 "Ünï 🚀", zeros to 204 + 320
    [524, '00000000'], // description: empty, zeros to 528 + 480
    [1008, '020000005550'], // yes_ticker "UP" in a 4 + 40 slot
    [1052, '04000000444f574e'], // no_ticker "DOWN"
  ]);

  it('encodes and decodes the documented bytes', () => {
    expect(encodeMarketAccount(market).toString('hex')).toBe(bytes.toString('hex'));
    expect(decodeMarketAccount(bytes)).toEqual(market);
  });

  it('offers the documented memcmp offsets', () => {
    expect(MARKET_ACCOUNT_OFFSETS).toMatchObject({ discriminator: 0, marketId: 8, creator: 16, vault: 48, mode: 106, status: 107 });
  });

  it('refuses foreign bytes: wrong size, wrong discriminator, unknown enum byte, overlong string slot', () => {
    expect(() => decodeMarketAccount(bytes.subarray(0, 1095))).toThrow(RangeError);
    expect(() => decodeMarketAccount(fixture(1096, [[0, '9b0caae01efacc82']]))).toThrow(/not a Market account/);
    const badMode = Buffer.from(bytes);
    badMode[106] = 2;
    expect(() => decodeMarketAccount(badMode)).toThrow(RangeError);
    const overlong = Buffer.from(bytes);
    overlong.writeUInt32LE(321, 200); // the title slot holds 320 bytes
    expect(() => decodeMarketAccount(overlong)).toThrow(RangeError);
    expect(() => encodeMarketAccount({ ...market, title: '🚀'.repeat(81) })).toThrow(RangeError); // 324 bytes
  });

  it('matches the table in docs/programs.md', () => {
    expect(layoutMismatches(docAccountTable('Market program', 'Market'), MARKET_LAYOUT)).toEqual([]);
  });
});
