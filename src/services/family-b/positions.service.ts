/**
 * GET /v2/positions/{wallet}[/{marketId}]: positions computed from the index (token accounts of
 * every indexed outcome mint joined with the market rows), so reads never touch the chain.
 */
import { findChainMarket, listChainMarketsByMints, type ChainMarketRow } from '../../../db/repositories/chain-markets.repository.js';
import { balancesByOwner } from '../../../db/repositories/token-accounts.repository.js';
import type { PublicKey } from '@solana/web3.js';
import { toMarketState } from '@pmx/programs';
import { positionFigures } from '../../domain/family-b/positions.js';
import { DomainError } from '../../domain/errors.js';
import { parseMarketId, parseWallet, type FamilyBContext } from './context.js';
import { decodeIndexedMarket } from './market-reader.js';
import { human } from './views.js';

function positionOf(programId: PublicKey, row: ChainMarketRow, balances: Map<string, bigint>) {
  const a = decodeIndexedMarket(programId, row.address, row.data);
  const yes = balances.get(row.yesMint) ?? 0n;
  const no = balances.get(row.noMint) ?? 0n;
  const f = positionFigures(toMarketState(a), { yes, no });
  return {
    marketId: Number(a.marketId),
    marketTitle: a.title,
    marketStatus: a.status,
    yesBalance: Number(yes),
    noBalance: Number(no),
    yesBalanceHuman: human(yes),
    noBalanceHuman: human(no),
    winningSide: a.winningSide,
    isResolved: f.isResolved,
    isBroken: !a.mintsInitialized,
    hasWinningTokens: f.hasWinningTokens,
    redeemableValueUsdc: human(f.redeemableRaw),
    needsRedemption: f.needsRedemption,
    detail: a,
  };
}

export async function walletPositions(ctx: FamilyBContext, walletInput: string) {
  const wallet = parseWallet(walletInput).toBase58();
  const balances = await balancesByOwner(ctx.db, wallet);
  const markets = await listChainMarketsByMints(ctx.db, [...balances.keys()]);
  return markets.map((row) => {
    const { detail: _detail, ...position } = positionOf(ctx.programId, row, balances);
    return position;
  });
}

export async function walletMarketPosition(
  ctx: FamilyBContext,
  walletInput: string,
  marketIdInput: string,
  imageUrls: { market: string | null; yes: string | null; no: string | null },
) {
  const wallet = parseWallet(walletInput).toBase58();
  const marketId = parseMarketId(marketIdInput);
  const row = await findChainMarket(ctx.db, marketId);
  const balances = await balancesByOwner(ctx.db, wallet);
  if (!row) throw new DomainError('not_found', 'MARKET_NOT_FOUND', `Market not found: ${marketId}`);
  const { detail: a, ...position } = positionOf(ctx.programId, row, balances);
  return {
    ...position,
    marketDescription: a.description,
    marketType: a.mode,
    yesTicker: a.yesTicker,
    noTicker: a.noTicker,
    resolutionTime: Number(a.resolutionTime),
    creator: a.creator.toBase58(),
    creatorFeesAccrued: Number(a.creatorFeesAccrued),
    creatorFeesAccruedHuman: human(a.creatorFeesAccrued),
    imageUrls,
  };
}
