/**
 * The market program's instructions, byte for byte as docs/programs.md ("Encoding", "Instructions")
 * specifies them: data as hex fixtures written from the document, and account lists in the
 * document's order with its signer/writable flags, the addresses derived from the documented seeds
 * with web3.js directly (not through the program client's PDA helpers).
 */
import { ASSOCIATED_TOKEN_PROGRAM_ID, TOKEN_PROGRAM_ID, getAssociatedTokenAddressSync } from '@solana/spl-token';
import { PublicKey, SystemProgram, type TransactionInstruction } from '@solana/web3.js';
import { describe, expect, it } from 'vitest';
import {
  BUY_DATA,
  BUY_DISCRIMINATOR,
  CANCEL_MARKET_DISCRIMINATOR,
  CLAIM_FEES_DISCRIMINATOR,
  CLAIM_PROTOCOL_FEES_DISCRIMINATOR,
  CONFIG_ACCOUNT_DISCRIMINATOR,
  CREATE_MARKET_DATA,
  CREATE_MARKET_DISCRIMINATOR,
  INITIALIZE_DISCRIMINATOR,
  INIT_MINTS_DISCRIMINATOR,
  MARKET_ACCOUNT_DISCRIMINATOR,
  MARKET_ERRORS,
  MARKET_PROGRAM_ID,
  REDEEM_DISCRIMINATOR,
  RESOLVE_DISCRIMINATOR,
  SELL_DISCRIMINATOR,
  REDEEM_DATA,
  RESOLVE_DATA,
  SELL_DATA,
  getCancelMarketInstruction,
  getClaimFeesInstruction,
  getClaimProtocolFeesInstruction,
  getCreateMarketInstruction,
  getInitMintsInstruction,
  getInitializeInstruction,
  getBuyInstruction,
  getRedeemInstruction,
  getResolveInstruction,
  getSellInstruction,
} from '../../src/market/index.js';
import { docDiscriminators, docErrorCodes } from '../doc-tables.js';

const key = (byte: number) => new PublicKey(Buffer.alloc(32, byte));
const admin = key(1),
  usdcMint = key(2),
  feeWallet = key(3),
  creator = key(4),
  trader = key(5);
const ID = 7n;
const idSeed = Buffer.from('0700000000000000', 'hex'); // market_id 7 as u64 LE
const pda = (...seeds: Buffer[]) => PublicKey.findProgramAddressSync(seeds, MARKET_PROGRAM_ID)[0];
const config = pda(Buffer.from('config'));
const market = pda(Buffer.from('market'), idSeed);
const yesMint = pda(Buffer.from('yes_mint'), idSeed);
const noMint = pda(Buffer.from('no_mint'), idSeed);
const vault = getAssociatedTokenAddressSync(usdcMint, market, true);
const ata = (mint: PublicKey, owner: PublicKey) => getAssociatedTokenAddressSync(mint, owner, true);

/** The account list as [address, flags] with flags "sw" (signer, writable), "s", "w" or "". */
function accounts(ix: TransactionInstruction): [string, string][] {
  return ix.keys.map((k) => [k.pubkey.toBase58(), `${k.isSigner ? 's' : ''}${k.isWritable ? 'w' : ''}`]);
}
const list = (...rows: [PublicKey, string][]) => rows.map(([k, f]) => [k.toBase58(), f]);

describe('market instruction data (hex from docs/programs.md)', () => {
  it('uses the discriminators and error codes of the document’s tables', () => {
    const code = {
      initialize: INITIALIZE_DISCRIMINATOR,
      create_market: CREATE_MARKET_DISCRIMINATOR,
      init_mints: INIT_MINTS_DISCRIMINATOR,
      buy: BUY_DISCRIMINATOR,
      sell: SELL_DISCRIMINATOR,
      resolve: RESOLVE_DISCRIMINATOR,
      redeem: REDEEM_DISCRIMINATOR,
      claim_fees: CLAIM_FEES_DISCRIMINATOR,
      claim_protocol_fees: CLAIM_PROTOCOL_FEES_DISCRIMINATOR,
      cancel_market: CANCEL_MARKET_DISCRIMINATOR,
      Config: CONFIG_ACCOUNT_DISCRIMINATOR,
      Market: MARKET_ACCOUNT_DISCRIMINATOR,
    };
    expect(docDiscriminators('Market program')).toEqual(Object.fromEntries(Object.entries(code).map(([n, d]) => [n, d.toString('hex')])));
    expect(docErrorCodes('Market program')).toEqual(Object.fromEntries(Object.entries(MARKET_ERRORS).map(([n, e]) => [n, e.code])));
  });

  it('initialize, init_mints, claim_fees, claim_protocol_fees, cancel_market: the discriminator only', () => {
    expect(getInitializeInstruction({ admin, usdcMint, protocolFeeWallet: feeWallet }).data.toString('hex')).toBe('afaf6d1f0d989bed');
    expect(getInitMintsInstruction({ marketId: ID, creator }).data.toString('hex')).toBe('310ad006d277593b');
    expect(getClaimFeesInstruction({ marketId: ID, creator, usdcMint }).data.toString('hex')).toBe('52fbe99c0c34b8ca');
    expect(
      getClaimProtocolFeesInstruction({ marketId: ID, caller: trader, usdcMint, protocolFeeWallet: feeWallet }).data.toString('hex'),
    ).toBe('228edb706d368517');
    expect(getCancelMarketInstruction({ marketId: ID, creator, usdcMint }).data.toString('hex')).toBe('cd7954d2de47960b');
  });

  it('create_market: market_id u64 | title | description | yes_ticker | no_ticker (u32 length + UTF-8) | resolution_time i64 | seed_amount u64 | trade_fee_bps u16', () => {
    const args = {
      marketId: ID,
      title: 'Rain?',
      description: '',
      yesTicker: 'Y',
      noTicker: 'N',
      resolutionTime: 2_000_000_000n,
      seedAmount: 5_000_000n,
      tradeFeeBps: 200,
    };
    const hex = [
      '67e261ebc8bcfbfe', // discriminator
      '0700000000000000', // market_id 7
      '05000000',
      '5261696e3f', // "Rain?"
      '00000000', // ""
      '01000000',
      '59', // "Y"
      '01000000',
      '4e', // "N"
      '0094357700000000', // resolution_time 2 000 000 000
      '404b4c0000000000', // seed_amount 5 000 000
      'c800', // trade_fee_bps 200
    ].join('');
    expect(getCreateMarketInstruction({ ...args, creator, usdcMint }).data.toString('hex')).toBe(hex);
    expect(CREATE_MARKET_DATA.decode(Buffer.from(hex, 'hex'))).toEqual(args);
    expect(() => CREATE_MARKET_DATA.decode(Buffer.from(`${hex}00`, 'hex'))).toThrow(RangeError); // trailing byte
  });

  it('buy / sell: side u8 (0 YES, 1 NO) | amount u64 | min_out u64', () => {
    const buy = '66063d1201daebea' + '00' + '00e1f50500000000' + '9f5bff0a00000000'; // YES, 100 000 000 in, ≥ 184 507 295 out
    const sell = '33e685a4017f83ad' + '01' + '9f5bff0a00000000' + 'c9d78c0500000000'; // NO, 184 507 295 in, ≥ 93 116 361 out
    expect(
      getBuyInstruction({ marketId: ID, side: 'YES', owner: trader, usdcMint, amount: 100_000_000n, minOut: 184_507_295n }).data.toString(
        'hex',
      ),
    ).toBe(buy);
    expect(
      getSellInstruction({ marketId: ID, side: 'NO', owner: trader, usdcMint, amount: 184_507_295n, minOut: 93_116_361n }).data.toString(
        'hex',
      ),
    ).toBe(sell);
    expect(BUY_DATA.decode(Buffer.from(buy, 'hex'))).toEqual({ side: 'YES', amount: 100_000_000n, minOut: 184_507_295n });
    expect(SELL_DATA.decode(Buffer.from(sell, 'hex'))).toEqual({ side: 'NO', amount: 184_507_295n, minOut: 93_116_361n });
    // Any other side byte decodes (the program then answers InvalidSide); short data does not.
    expect(BUY_DATA.decode(Buffer.from(buy.replace(/^(.{16})00/, '$102'), 'hex')).side).toBeNull();
    expect(() => BUY_DATA.decode(Buffer.from(buy.slice(0, -2), 'hex'))).toThrow(RangeError);
  });

  it('redeem: side u8; resolve: winning_side u8', () => {
    expect(getRedeemInstruction({ marketId: ID, side: 'NO', owner: trader, usdcMint }).data.toString('hex')).toBe(
      'b80c569546c461e1' + '01',
    );
    expect(getResolveInstruction({ marketId: ID, creator, usdcMint, winningSide: 'YES' }).data.toString('hex')).toBe(
      'f696ecce6c3f3a0a' + '00',
    );
    expect(REDEEM_DATA.decode(Buffer.from('b80c569546c461e100', 'hex'))).toEqual({ side: 'YES' });
    expect(RESOLVE_DATA.decode(Buffer.from('f696ecce6c3f3a0a01', 'hex'))).toEqual({ winningSide: 'NO' });
  });
});

describe('market instruction accounts (order and flags from docs/programs.md)', () => {
  it('initialize: admin (s,w), config (w), usdc_mint, protocol_fee_wallet, system_program', () => {
    expect(accounts(getInitializeInstruction({ admin, usdcMint, protocolFeeWallet: feeWallet }))).toEqual(
      list([admin, 'sw'], [config, 'w'], [usdcMint, ''], [feeWallet, ''], [SystemProgram.programId, '']),
    );
  });

  it('create_market: creator (s,w), config (w), market (w), usdc_mint, vault (w), creator_usdc (w), token, ATA, system programs', () => {
    const ix = getCreateMarketInstruction({
      marketId: ID,
      creator,
      usdcMint,
      title: 't',
      description: '',
      yesTicker: 'Y',
      noTicker: 'N',
      resolutionTime: 2_000_000_000n,
      seedAmount: 0n,
      tradeFeeBps: 100,
    });
    expect(accounts(ix)).toEqual(
      list(
        [creator, 'sw'],
        [config, 'w'],
        [market, 'w'],
        [usdcMint, ''],
        [vault, 'w'],
        [ata(usdcMint, creator), 'w'],
        [TOKEN_PROGRAM_ID, ''],
        [ASSOCIATED_TOKEN_PROGRAM_ID, ''],
        [SystemProgram.programId, ''],
      ),
    );
  });

  it('init_mints: creator (s,w), market (w), yes_mint (w), no_mint (w), token_program, system_program', () => {
    expect(accounts(getInitMintsInstruction({ marketId: ID, creator }))).toEqual(
      list([creator, 'sw'], [market, 'w'], [yesMint, 'w'], [noMint, 'w'], [TOKEN_PROGRAM_ID, ''], [SystemProgram.programId, '']),
    );
  });

  it('buy / sell / redeem: owner (s,w), market (w), vault (w), owner_usdc (w), outcome_mint (w), owner_outcome (w), token_program', () => {
    const expected = (mint: PublicKey) =>
      list(
        [trader, 'sw'],
        [market, 'w'],
        [vault, 'w'],
        [ata(usdcMint, trader), 'w'],
        [mint, 'w'],
        [ata(mint, trader), 'w'],
        [TOKEN_PROGRAM_ID, ''],
      );
    expect(accounts(getBuyInstruction({ marketId: ID, side: 'YES', owner: trader, usdcMint, amount: 1n, minOut: 0n }))).toEqual(
      expected(yesMint),
    );
    expect(accounts(getSellInstruction({ marketId: ID, side: 'NO', owner: trader, usdcMint, amount: 1n, minOut: 0n }))).toEqual(
      expected(noMint),
    );
    expect(accounts(getRedeemInstruction({ marketId: ID, side: 'NO', owner: trader, usdcMint }))).toEqual(expected(noMint));
  });

  it('resolve / claim_fees / cancel_market: creator (s,w), market (w), vault (w), creator_usdc (w), token_program', () => {
    const expected = list([creator, 'sw'], [market, 'w'], [vault, 'w'], [ata(usdcMint, creator), 'w'], [TOKEN_PROGRAM_ID, '']);
    expect(accounts(getResolveInstruction({ marketId: ID, creator, usdcMint, winningSide: 'NO' }))).toEqual(expected);
    expect(accounts(getClaimFeesInstruction({ marketId: ID, creator, usdcMint }))).toEqual(expected);
    expect(accounts(getCancelMarketInstruction({ marketId: ID, creator, usdcMint }))).toEqual(expected);
  });

  it('claim_protocol_fees: caller (s), config, market (w), vault (w), protocol_fee_usdc (w), token_program', () => {
    expect(accounts(getClaimProtocolFeesInstruction({ marketId: ID, caller: trader, usdcMint, protocolFeeWallet: feeWallet }))).toEqual(
      list([trader, 's'], [config, ''], [market, 'w'], [vault, 'w'], [ata(usdcMint, feeWallet), 'w'], [TOKEN_PROGRAM_ID, '']),
    );
  });
});
