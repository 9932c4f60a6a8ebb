/**
 * The exchange program's existing instructions and accounts, byte for byte as docs/programs.md
 * ("Exchange program") specifies them: hex fixtures written from the document's tables, account
 * lists in the document's order with its flags (addresses derived from the documented seeds with
 * web3.js directly), and the document's account tables compared with the code's layouts.
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  CLOB_MARKET_LAYOUT,
  EXCHANGE_CONFIG_LAYOUT,
  EXCHANGE_ACCOUNT,
  EXCHANGE_DATA,
  EXCHANGE_ERRORS,
  EXCHANGE_IX,
  EXCHANGE_PROGRAM_ID,
  USER_ESCROW_LAYOUT,
  decodeClobMarket,
  decodeExchangeConfig,
  decodeUserEscrow,
  encodeClobMarket,
  encodeExchangeConfig,
  encodeUserEscrow,
  getClobCreateMarketInstruction,
  getClobMarketStatusInstruction,
  getClobRedeemInstruction,
  getDepositInstruction,
  getExchangeInitializeInstruction,
  getExchangeSetFeesInstruction,
  getMergeInstruction,
  getSplitInstruction,
  getWithdrawInstruction,
} from '../../src/exchange/index.js';
import { docAccountTable, docDiscriminators, docErrorCodes, layoutMismatches } from '../doc-tables.js';

const key = (byte: number) => new PublicKey(Buffer.alloc(32, byte));
const hexKey = (byte: number) => byte.toString(16).padStart(2, '0').repeat(32);
// Wallets must be on the curve (their token accounts are ATAs of an ordinary owner).
const operator = Keypair.fromSeed(Buffer.alloc(32, 1)).publicKey;
const owner = Keypair.fromSeed(Buffer.alloc(32, 2)).publicKey;
const usdcMint = key(3),
  feeWallet = key(4);
const UUID = '0f8fad5b-d9cb-469f-a165-70867728950e';
const uuidBytes = Buffer.from('0f8fad5bd9cb469fa16570867728950e', 'hex'); // RFC 4122 order
const pda = (...seeds: Buffer[]) => PublicKey.findProgramAddressSync(seeds, EXCHANGE_PROGRAM_ID)[0];
const config = pda(Buffer.from('config'));
const market = pda(Buffer.from('market'), uuidBytes);
const yesMint = pda(Buffer.from('yes_mint'), uuidBytes);
const noMint = pda(Buffer.from('no_mint'), uuidBytes);
const escrow = pda(Buffer.from('user_escrow'), owner.toBuffer());
const ata = (mint: PublicKey, of: PublicKey) => getAssociatedTokenAddressSync(mint, of, true);
const vault = ata(usdcMint, market);

function fixture(size: number, parts: [number, string][]): Buffer {
  const b = Buffer.alloc(size);
  for (const [offset, hex] of parts) Buffer.from(hex, 'hex').copy(b, offset);
  return b;
}
function accounts(ix: TransactionInstruction): [string, string][] {
  return ix.keys.map((k) => [k.pubkey.toBase58(), `${k.isSigner ? 's' : ''}${k.isWritable ? 'w' : ''}`]);
}
const list = (...rows: [PublicKey, string][]) => rows.map(([k, f]) => [k.toBase58(), f]);
const hex = (ix: TransactionInstruction) => ix.data.toString('hex');

describe('exchange instruction data (hex from docs/programs.md)', () => {
  it('uses the discriminators and error codes of the document’s tables', () => {
    const x = EXCHANGE_IX;
    const code = {
      initialize: x.initialize,
      set_fees: x.setFees,
      create_market: x.createMarket,
      pause_market: x.pauseMarket,
      resume_market: x.resumeMarket,
      resolve_market: x.resolveMarket,
      deposit: x.deposit,
      withdraw: x.withdraw,
      split: x.split,
      merge: x.merge,
      redeem: x.redeem,
      settle: x.settle,
      ExchangeConfig: EXCHANGE_ACCOUNT.config,
      OrderbookMarket: EXCHANGE_ACCOUNT.market,
      UserEscrow: EXCHANGE_ACCOUNT.escrow,
      FillReceipt: EXCHANGE_ACCOUNT.fillReceipt,
    };
    // Every discriminator of the code as documented (the document may list more: reserved ones).
    expect(docDiscriminators('Exchange program')).toMatchObject(
      Object.fromEntries(Object.entries(code).map(([n, d]) => [n, d.toString('hex')])),
    );
    // Codes 6040–6059 are reserved for settle (a range row, not a name).
    expect(docErrorCodes('Exchange program')).toEqual(Object.fromEntries(Object.entries(EXCHANGE_ERRORS).map(([n, e]) => [n, e.code])));
  });

  it('initialize / set_fees: taker_fee_bps u16 | maker_rebate_bps u16', () => {
    expect(hex(getExchangeInitializeInstruction({ operator, usdcMint, feeWallet, takerFeeBps: 25, makerRebateBps: 5 }))).toBe(
      'afaf6d1f0d989bed' + '1900' + '0500',
    );
    expect(hex(getExchangeSetFeesInstruction({ operator, takerFeeBps: 1000, makerRebateBps: 7 }))).toBe(
      '89b2313a00f5f2be' + 'e803' + '0700',
    );
    expect(EXCHANGE_DATA.setFees.decode(Buffer.from('89b2313a00f5f2bee8030700', 'hex'))).toEqual({ takerFeeBps: 1000, makerRebateBps: 7 });
  });

  it('create_market: market_uuid [u8; 16]', () => {
    expect(hex(getClobCreateMarketInstruction({ operator, marketUuid: UUID, usdcMint }))).toBe(
      '67e261ebc8bcfbfe' + '0f8fad5bd9cb469fa16570867728950e',
    );
  });

  it('pause_market / resume_market: none; resolve_market: outcome u8', () => {
    const status = (action: 'pause' | 'resume' | 'resolve', outcome?: 0 | 1) =>
      hex(getClobMarketStatusInstruction({ operator, marketUuid: UUID, action, outcome }));
    expect(status('pause')).toBe('d8ee04a4410ba25b');
    expect(status('resume')).toBe('c67868572c676c8f');
    expect(status('resolve', 1)).toBe('9b1750ad2e4a17ef' + '01');
  });

  it('deposit / withdraw / split / merge: amount u64; redeem: outcome u8 | amount u64', () => {
    const p = { owner, usdcMint, marketUuid: UUID, amount: 1_000_000n };
    expect(hex(getDepositInstruction(p))).toBe('f223c68952e1f2b6' + '40420f0000000000');
    expect(hex(getWithdrawInstruction(p))).toBe('b712469c946da122' + '40420f0000000000');
    expect(hex(getSplitInstruction(p))).toBe('7cbd1b2bd8289342' + '40420f0000000000');
    expect(hex(getMergeInstruction(p))).toBe('948dec2fae7e456f' + '40420f0000000000');
    expect(hex(getClobRedeemInstruction({ ...p, outcome: 0, amount: 2n }))).toBe('b80c569546c461e1' + '00' + '0200000000000000');
    expect(EXCHANGE_DATA.redeem.decode(Buffer.from('b80c569546c461e1010200000000000000', 'hex'))).toEqual({ outcome: 1, amount: 2n });
    // Exact lengths: one byte short or long is malformed.
    expect(() => EXCHANGE_DATA.deposit.decode(Buffer.from('f223c68952e1f2b640420f00000000', 'hex'))).toThrow(RangeError);
    expect(() => EXCHANGE_DATA.deposit.decode(Buffer.from('f223c68952e1f2b640420f000000000000', 'hex'))).toThrow(RangeError);
  });
});

describe('exchange instruction accounts (order and flags from docs/programs.md)', () => {
  it('initialize: operator (s,w), config (w), usdc_mint, fee_wallet, system_program; set_fees: operator (s,w), config (w)', () => {
    expect(accounts(getExchangeInitializeInstruction({ operator, usdcMint, feeWallet, takerFeeBps: 25, makerRebateBps: 5 }))).toEqual(
      list([operator, 'sw'], [config, 'w'], [usdcMint, ''], [feeWallet, ''], [SystemProgram.programId, '']),
    );
    expect(accounts(getExchangeSetFeesInstruction({ operator, takerFeeBps: 25, makerRebateBps: 5 }))).toEqual(
      list([operator, 'sw'], [config, 'w']),
    );
  });

  it('create_market: operator (s,w), config, market (w), yes_mint (w), no_mint (w), usdc_mint, vault (w), token, ATA, system programs', () => {
    expect(accounts(getClobCreateMarketInstruction({ operator, marketUuid: UUID, usdcMint }))).toEqual(
      list(
        [operator, 'sw'],
        [config, ''],
        [market, 'w'],
        [yesMint, 'w'],
        [noMint, 'w'],
        [usdcMint, ''],
        [vault, 'w'],
        [TOKEN_PROGRAM_ID, ''],
        [ASSOCIATED_TOKEN_PROGRAM_ID, ''],
        [SystemProgram.programId, ''],
      ),
    );
  });

  it('pause / resume / resolve: operator (s), config, market (w)', () => {
    for (const action of ['pause', 'resume', 'resolve'] as const) {
      expect(accounts(getClobMarketStatusInstruction({ operator, marketUuid: UUID, action, outcome: 0 }))).toEqual(
        list([operator, 's'], [config, ''], [market, 'w']),
      );
    }
  });

  it('deposit: owner (s,w), config, escrow (w), usdc_mint, owner_usdc (w), escrow_usdc (w), token, ATA, system programs', () => {
    expect(accounts(getDepositInstruction({ owner, usdcMint, amount: 1n }))).toEqual(
      list(
        [owner, 'sw'],
        [config, ''],
        [escrow, 'w'],
        [usdcMint, ''],
        [ata(usdcMint, owner), 'w'],
        [ata(usdcMint, escrow), 'w'],
        [TOKEN_PROGRAM_ID, ''],
        [ASSOCIATED_TOKEN_PROGRAM_ID, ''],
        [SystemProgram.programId, ''],
      ),
    );
  });

  it('withdraw: owner (s), config, escrow, escrow_usdc (w), owner_usdc (w), token_program', () => {
    expect(accounts(getWithdrawInstruction({ owner, usdcMint, amount: 1n }))).toEqual(
      list([owner, 's'], [config, ''], [escrow, ''], [ata(usdcMint, escrow), 'w'], [ata(usdcMint, owner), 'w'], [TOKEN_PROGRAM_ID, '']),
    );
  });

  it('split / merge / redeem: owner (s,w), escrow, market (w), vault (w), escrow_usdc (w), yes_mint (w), no_mint (w), escrow_yes (w), escrow_no (w), token, ATA, system programs', () => {
    const expected = list(
      [owner, 'sw'],
      [escrow, ''],
      [market, 'w'],
      [vault, 'w'],
      [ata(usdcMint, escrow), 'w'],
      [yesMint, 'w'],
      [noMint, 'w'],
      [ata(yesMint, escrow), 'w'],
      [ata(noMint, escrow), 'w'],
      [TOKEN_PROGRAM_ID, ''],
      [ASSOCIATED_TOKEN_PROGRAM_ID, ''],
      [SystemProgram.programId, ''],
    );
    const p = { owner, usdcMint, marketUuid: UUID, amount: 1n };
    expect(accounts(getSplitInstruction(p))).toEqual(expected);
    expect(accounts(getMergeInstruction(p))).toEqual(expected);
    expect(accounts(getClobRedeemInstruction({ ...p, outcome: 1 }))).toEqual(expected);
  });
});

describe('exchange accounts (bytes from docs/programs.md)', () => {
  it('ExchangeConfig (128 bytes)', () => {
    const account = { operator: key(0x11), usdcMint: key(0x22), feeWallet: key(0x33), takerFeeBps: 25, makerRebateBps: 5, bump: 255 };
    const bytes = fixture(128, [
      [0, '5ff5f63a62e26983'], // sha256("account:ExchangeConfig")[0..8]
      [8, hexKey(0x11)],
      [40, hexKey(0x22)],
      [72, hexKey(0x33)], // operator, usdc_mint, fee_wallet
      [104, '1900'],
      [106, '0500'], // taker_fee_bps 25, maker_rebate_bps 5
      [108, 'ff'], // bump; 109..128 reserved
    ]);
    expect(encodeExchangeConfig(account).toString('hex')).toBe(bytes.toString('hex'));
    expect(decodeExchangeConfig(bytes)).toEqual(account);
    expect(layoutMismatches(docAccountTable('Exchange program', 'ExchangeConfig'), EXCHANGE_CONFIG_LAYOUT)).toEqual([]);
  });

  it('OrderbookMarket (160 bytes)', () => {
    const account = {
      marketUuid: uuidBytes,
      yesMint: key(0x44),
      noMint: key(0x55),
      vault: key(0x66),
      completeSets: 1_000_000n,
      createdAt: 1_800_000_000n,
      resolvedAt: 1_900_000_000n,
      status: 'resolved' as const,
      outcome: 'no' as const,
      bump: 252,
    };
    const bytes = fixture(160, [
      [0, 'e76fb575abf32c48'], // sha256("account:OrderbookMarket")[0..8]
      [8, '0f8fad5bd9cb469fa16570867728950e'], // market_uuid
      [24, hexKey(0x44)],
      [56, hexKey(0x55)],
      [88, hexKey(0x66)], // yes_mint, no_mint, vault
      [120, '40420f0000000000'], // complete_sets 1 000 000
      [128, '00d2496b00000000'],
      [136, '00b33f7100000000'], // created_at 1 800 000 000, resolved_at 1 900 000 000
      [144, '02'],
      [145, '02'],
      [146, 'fc'], // status 2 resolved, outcome 2 NO, bump 252; 147..160 reserved
    ]);
    expect(encodeClobMarket(account).toString('hex')).toBe(bytes.toString('hex'));
    expect(decodeClobMarket(bytes)).toEqual(account);
    expect(layoutMismatches(docAccountTable('Exchange program', 'OrderbookMarket'), CLOB_MARKET_LAYOUT)).toEqual([]);
  });

  it('UserEscrow (80 bytes)', () => {
    const account = { owner: key(0x77), createdAt: 1_800_000_000n, bump: 250 };
    const bytes = fixture(80, [
      [0, 'f2e955261a058e6d'], // sha256("account:UserEscrow")[0..8]
      [8, hexKey(0x77)],
      [40, '00d2496b00000000'],
      [48, 'fa'], // owner, created_at, bump; 49..80 reserved
    ]);
    expect(encodeUserEscrow(account).toString('hex')).toBe(bytes.toString('hex'));
    expect(decodeUserEscrow(bytes)).toEqual(account);
    expect(layoutMismatches(docAccountTable('Exchange program', 'UserEscrow'), USER_ESCROW_LAYOUT)).toEqual([]);
    // Reserved bytes are not read: a later version may use them (settlement nonces).
    const later = Buffer.from(bytes);
    later[79] = 1;
    expect(decodeUserEscrow(later)).toEqual(account);
  });
});
