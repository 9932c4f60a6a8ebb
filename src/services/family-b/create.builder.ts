/**
 * POST /v2/markets/create and /v2/markets/{id}/init-mints. The market id comes from the on-chain
 * counter: the next free id above both the counter and every id already reserved here, so two
 * concurrent creations never build transactions for the same id.
 */
import { highestReservation, tryReserve } from '../../../db/repositories/market-id-reservations.repository.js';
import { maxIndexedMarketId } from '../../../db/repositories/chain-markets.repository.js';
import { associatedTokenAddress, getCreateMarketInstruction, getInitMintsInstruction, PACKET_DATA_SIZE } from '@pmx/programs';
import { assembleUnsignedTransaction, transactionSize } from '../../chain/transaction-assembly.js';
import { createMarketProblem } from '../../domain/family-b/create-rules.js';
import { DomainError } from '../../domain/errors.js';
import { parseAmount, parseMarketId, parseWallet, type FamilyBContext } from './context.js';
import { notCreator } from './errors.js';
import { readProgramConfig, requireMarketFromChain } from './market-reader.js';

export interface CreateParams {
  wallet: string;
  title: string;
  description: string;
  yesTicker: string;
  noTicker: string;
  resolutionTime: number;
  seedAmount: string;
  tradeFeeBps: number;
}

async function reserveMarketId(ctx: FamilyBContext, creator: string): Promise<bigint> {
  const config = await readProgramConfig(ctx);
  if (!config) throw new DomainError('unavailable', 'PROGRAM_NOT_INITIALIZED', 'The market program is not initialised on this cluster');
  for (let attempt = 0; attempt < 10; attempt++) {
    const floor = [config.marketCounter, await highestReservation(ctx.db), await maxIndexedMarketId(ctx.db)].reduce((a, b) =>
      a > b ? a : b,
    );
    const candidate = floor + 1n;
    if (await tryReserve(ctx.db, candidate, creator)) return candidate;
  }
  throw new DomainError('unavailable', 'MARKET_ID_CONTENTION', 'Could not reserve a market id; try again');
}

export async function buildCreateMarket(ctx: FamilyBContext, p: CreateParams) {
  const creator = parseWallet(p.wallet);
  const seedAmount = parseAmount(p.seedAmount, 'seedAmount');
  const problem = createMarketProblem({ ...p, seedAmount });
  if (problem) throw new DomainError('invalid', 'VALIDATION_ERROR', problem);
  const instructionFor = (marketId: bigint) =>
    getCreateMarketInstruction({
      marketId,
      title: p.title,
      description: p.description,
      yesTicker: p.yesTicker.trim(),
      noTicker: p.noTicker.trim(),
      resolutionTime: BigInt(p.resolutionTime),
      seedAmount,
      tradeFeeBps: p.tradeFeeBps,
      creator,
      usdcMint: ctx.usdcMint,
      creatorUsdc: associatedTokenAddress(ctx.usdcMint, creator),
      programId: ctx.programId,
    });
  // Refused before an id is reserved: a refused request must not use one up. The id is a fixed
  // 8 bytes, so the size does not depend on which id it will be.
  const size = transactionSize(creator, [instructionFor(0n)]);
  if (size > PACKET_DATA_SIZE) {
    throw new DomainError(
      'invalid',
      'TRANSACTION_TOO_LARGE',
      `title and description make the transaction ${size} bytes, over the ${PACKET_DATA_SIZE}-byte limit; shorten them (they are stored as UTF-8: an emoji takes 4 bytes)`,
      { size, limit: PACKET_DATA_SIZE },
    );
  }
  const marketId = await reserveMarketId(ctx, creator.toBase58());
  const tx = assembleUnsignedTransaction(creator, [instructionFor(marketId)], await ctx.chain.getLatestBlockhash());
  return {
    data: {
      transaction: tx.transaction,
      marketId: Number(marketId),
      marketType: seedAmount === 0n ? 'pool' : 'amm',
      message: `Sign and submit this transaction to create market ${marketId}, then call POST /v2/markets/${marketId}/init-mints and POST /v2/markets/confirm.`,
    },
  };
}

export async function buildInitMints(ctx: FamilyBContext, p: { marketId: string; wallet: string }) {
  const wallet = parseWallet(p.wallet);
  const marketId = parseMarketId(p.marketId);
  const market = await requireMarketFromChain(ctx, marketId);
  if (!market.account.creator.equals(wallet)) throw notCreator(market.account.creator.toBase58(), wallet.toBase58());
  if (market.account.mintsInitialized) {
    return { flags: { alreadyInitialized: true, note: `Mints of market ${marketId} are already initialised` } };
  }
  const instruction = getInitMintsInstruction({ marketId, creator: wallet, programId: ctx.programId });
  const tx = assembleUnsignedTransaction(wallet, [instruction], await ctx.chain.getLatestBlockhash());
  return {
    data: {
      transaction: tx.transaction,
      marketId: Number(marketId),
      yesMint: market.yesMint.toBase58(),
      noMint: market.noMint.toBase58(),
      message: `Sign and submit this transaction to initialise the YES and NO mints of market ${marketId}.`,
    },
  };
}
