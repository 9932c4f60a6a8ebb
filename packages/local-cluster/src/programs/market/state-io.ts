/**
 * Reading and writing the program's state accounts and reading SPL token accounts, with the
 * ownership checks a deployed program makes (data owned by the right program, right type).
 */
import { MintLayout, TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { PublicKey, SystemProgram } from '@solana/web3.js';
import type { InvocationContext } from '../../program-runtime.js';
import {
  type ConfigAccount,
  decodeConfigAccount,
  decodeTokenAccount,
  decodeMarketAccount,
  encodeConfigAccount,
  encodeMarketAccount,
  findConfigPda,
  findMarketPda,
  type MarketAccount,
} from '@pmx/programs';
import { fail } from './guard.js';

/** System createAccount signed by the payer and the new PDA, as invoke_signed would on chain. */
export function createPdaAccount(ctx: InvocationContext, payer: PublicKey, address: PublicKey, size: number, owner: PublicKey): void {
  if (ctx.getAccount(address)) fail('AlreadyInitialized', address.toBase58());
  ctx.invoke(
    [
      SystemProgram.createAccount({
        fromPubkey: payer,
        newAccountPubkey: address,
        lamports: Number(ctx.rentExemptMinimum(size)),
        space: size,
        programId: owner,
      }),
    ],
    [address],
  );
}

function ownedData(ctx: InvocationContext, address: PublicKey, programId: PublicKey): Buffer {
  const acc = ctx.getAccount(address);
  if (!acc || acc.data.length === 0) fail('NotInitialized', address.toBase58());
  if (!acc.owner.equals(programId)) fail('InvalidAccount', `${address.toBase58()} is not owned by the program`);
  return acc.data;
}

export function loadConfig(ctx: InvocationContext, address: PublicKey, programId: PublicKey): ConfigAccount {
  if (!address.equals(findConfigPda(programId)[0])) fail('InvalidAccount', 'config PDA');
  try {
    return decodeConfigAccount(ownedData(ctx, address, programId));
  } catch (e) {
    if (e instanceof RangeError) fail('InvalidAccount', e.message);
    throw e;
  }
}

export function loadMarket(ctx: InvocationContext, address: PublicKey, programId: PublicKey): MarketAccount {
  let market: MarketAccount;
  try {
    market = decodeMarketAccount(ownedData(ctx, address, programId));
  } catch (e) {
    if (e instanceof RangeError) fail('InvalidAccount', e.message);
    throw e;
  }
  if (!address.equals(findMarketPda(market.marketId, programId)[0])) fail('InvalidAccount', 'market PDA');
  return market;
}

export function saveAccount(ctx: InvocationContext, address: PublicKey, data: Buffer): void {
  const lamports = ctx.getAccount(address)?.lamports ?? 0n;
  ctx.writeAccount(address, { lamports, data });
}

export function saveMarket(ctx: InvocationContext, address: PublicKey, m: MarketAccount): void {
  saveAccount(ctx, address, encodeMarketAccount(m));
}

export function saveConfig(ctx: InvocationContext, address: PublicKey, c: ConfigAccount): void {
  saveAccount(ctx, address, encodeConfigAccount(c));
}

export interface TokenAccountView {
  mint: PublicKey;
  owner: PublicKey;
  amount: bigint;
}

/** An initialised SPL token account (of `mint` and `owner` when given). */
export function readTokenAccount(ctx: InvocationContext, address: PublicKey, mint?: PublicKey, owner?: PublicKey): TokenAccountView {
  const acc = ctx.getAccount(address);
  const raw = acc && acc.owner.equals(TOKEN_PROGRAM_ID) ? decodeTokenAccount(acc.data) : null;
  if (!raw) fail('InvalidAccount', `${address.toBase58()} is not a token account`);
  if (mint && raw.mint !== mint.toBase58()) fail('InvalidAccount', `${address.toBase58()} holds another mint`);
  if (owner && raw.owner !== owner.toBase58()) fail('InvalidAccount', `${address.toBase58()} belongs to another wallet`);
  return { mint: new PublicKey(raw.mint), owner: new PublicKey(raw.owner), amount: raw.amount };
}

/** The mint's supply (also proves the account is an initialised SPL mint). */
export function readMintSupply(ctx: InvocationContext, address: PublicKey): bigint {
  const acc = ctx.getAccount(address);
  if (!acc || !acc.owner.equals(TOKEN_PROGRAM_ID) || acc.data.length < MintLayout.span) {
    fail('InvalidAccount', `${address.toBase58()} is not a mint`);
  }
  return MintLayout.decode(acc.data).supply;
}
