/** Reading and writing the exchange's state accounts and SPL token accounts, with owner checks. */
import { TOKEN_PROGRAM_ID } from '@solana/spl-token';
import { SystemProgram, type PublicKey } from '@solana/web3.js';
import type { InvocationContext } from '../../program-runtime.js';
import {
  type ClobMarketAccount,
  decodeClobMarket,
  decodeExchangeConfig,
  decodeUserEscrow,
  type ExchangeConfigAccount,
  findClobMarketPda,
  findExchangeConfigPda,
  tokenAccountBalance,
  bytesOf,
  type UserEscrowAccount,
  uuidFromSeed,
} from '@pmx/programs';
import { fail } from './guard.js';

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

function owned<T>(ctx: InvocationContext, address: PublicKey, programId: PublicKey, decode: (d: Buffer) => T): T {
  const acc = ctx.getAccount(address);
  if (!acc || acc.data.length === 0) fail('NotInitialized', address.toBase58());
  if (!acc.owner.equals(programId)) fail('InvalidAccount', `${address.toBase58()} is not owned by the program`);
  try {
    return decode(acc.data);
  } catch (e) {
    if (e instanceof RangeError) fail('InvalidAccount', e.message);
    throw e;
  }
}

export function loadConfig(ctx: InvocationContext, address: PublicKey, programId: PublicKey): ExchangeConfigAccount {
  if (!address.equals(findExchangeConfigPda(programId)[0])) fail('InvalidAccount', 'config PDA');
  return owned(ctx, address, programId, decodeExchangeConfig);
}

export function loadMarket(ctx: InvocationContext, address: PublicKey, programId: PublicKey): ClobMarketAccount {
  const m = owned(ctx, address, programId, decodeClobMarket);
  if (!address.equals(findClobMarketPda(uuidFromSeed(m.marketUuid), programId)[0])) fail('InvalidAccount', 'market PDA');
  return m;
}

export function loadEscrow(ctx: InvocationContext, address: PublicKey, programId: PublicKey): UserEscrowAccount {
  return owned(ctx, address, programId, decodeUserEscrow);
}

export function save(ctx: InvocationContext, address: PublicKey, data: Buffer): void {
  ctx.writeAccount(address, { lamports: ctx.getAccount(address)?.lamports ?? 0n, data });
}

/** An initialised SPL token account of `mint` (and `owner` when given); returns its balance. */
export function tokenBalance(ctx: InvocationContext, address: PublicKey, mint: PublicKey, owner?: PublicKey): bigint {
  const acc = ctx.getAccount(address);
  const raw = acc && acc.owner.equals(TOKEN_PROGRAM_ID) ? tokenAccountBalance(acc.data) : null;
  if (!raw) fail('InvalidAccount', `${address.toBase58()} is not a token account`);
  if (!bytesOf(mint).equals(raw.mint)) fail('InvalidAccount', `${address.toBase58()} holds another mint`);
  if (owner && !bytesOf(owner).equals(raw.owner)) fail('InvalidAccount', `${address.toBase58()} belongs to another wallet`);
  return raw.amount;
}
