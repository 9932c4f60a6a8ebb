/**
 * The vault checks of the console's Money page, one row per market: Family B vaults against what
 * their holders and fee owners can claim, orderbook vaults against their outcome supply (the
 * rules: src/domain/solvency/solvency-rules.ts). Each family's market accounts, vaults and mints
 * are read fresh from the chain, never from the index, in getMultipleAccounts chunks.
 */
import { PublicKey } from '@solana/web3.js';
import { decodeClobMarket, decodeMarketAccount, findTokenAccountAddress, toMarketState } from '@pmx/programs';
import type { Kysely } from 'kysely';
import { newestChainMarkets, newestOrderbookMarkets } from '../../../db/repositories/solvency.repository.js';
import type { Database } from '../../../db/schema.js';
import { familyBSolvency, orderbookSolvency } from '../../domain/solvency/solvency-rules.js';
import type { ChainClient } from '../../chain/chain-client.js';
import { mintSupply, readAccounts, tokenAmount } from './solvency-reads.js';

export interface MarketReadDeps {
  db: Kysely<Database>;
  chain: ChainClient;
  usdcMint: string;
  marketProgram: string;
  exchangeProgram: string | null;
}

/** Amounts are raw USDC (or raw outcome tokens: 1 raw token is worth at most 1 raw USDC), as decimal strings. */
export interface FamilyBVaultRow {
  marketId: string;
  address: string;
  vault: string;
  mode: string | null;
  status: string | null;
  vaultBalance: string;
  yesSupply: string;
  noSupply: string;
  collateral: string;
  unclaimedFees: string;
  owedToHolders: string;
  required: string;
  shortfall: string;
  ok: boolean;
  /** What could not be read, when something could not. */
  problem: string | null;
}

export interface OrderbookVaultRow {
  id: string;
  slug: string;
  address: string;
  vault: string;
  status: string | null;
  outcome: string | null;
  vaultBalance: string;
  yesSupply: string;
  noSupply: string;
  completeSets: string;
  required: string;
  shortfall: string;
  ok: boolean;
  problem: string | null;
}

const s = (value: bigint | number) => String(value);

export async function familyBVaults(deps: MarketReadDeps, limit: number): Promise<FamilyBVaultRow[]> {
  const usdc = new PublicKey(deps.usdcMint);
  const rows = (await newestChainMarkets(deps.db, limit)).map((r) => ({
    ...r,
    vault: findTokenAccountAddress(new PublicKey(r.address), usdc).toBase58(),
  }));
  const accounts = await readAccounts(
    deps.chain,
    rows.flatMap((r) => [r.address, r.vault]),
  );
  return rows.map((r) => {
    const account = accounts.get(r.address);
    const balance = tokenAmount(accounts.get(r.vault), deps.usdcMint);
    const empty = { mode: null, status: null, yesSupply: '0', noSupply: '0', collateral: '0', unclaimedFees: '0', owedToHolders: '0' };
    const base = { marketId: s(BigInt(r.market_id)), address: r.address, vault: r.vault, vaultBalance: s(balance ?? 0n) };
    if (!account || account.owner !== deps.marketProgram)
      return { ...base, ...empty, required: '0', shortfall: '0', ok: false, problem: 'market account missing' };
    let state;
    try {
      state = toMarketState(decodeMarketAccount(account.data));
    } catch {
      return { ...base, ...empty, required: '0', shortfall: '0', ok: false, problem: 'market account unreadable' };
    }
    const check = familyBSolvency(state, balance ?? 0n);
    return {
      ...base,
      mode: state.mode,
      status: state.status,
      yesSupply: s(state.yesSupply),
      noSupply: s(state.noSupply),
      collateral: s(state.collateral),
      unclaimedFees: s(check.unclaimedFees),
      owedToHolders: s(check.owedToHolders),
      required: s(check.required),
      shortfall: s(check.shortfall),
      ok: check.ok && balance !== null,
      problem: balance === null ? 'vault missing' : null,
    };
  });
}

export async function orderbookVaults(deps: MarketReadDeps, limit: number): Promise<OrderbookVaultRow[]> {
  const rows = await newestOrderbookMarkets(deps.db, limit);
  const mints = rows.flatMap((r) => [r.yes_mint, r.no_mint].filter((m): m is string => m !== null));
  const accounts = await readAccounts(deps.chain, [...rows.flatMap((r) => [r.market_pubkey, r.vault]), ...mints]);
  return rows.map((r) => {
    const account = accounts.get(r.market_pubkey);
    const balance = tokenAmount(accounts.get(r.vault), deps.usdcMint);
    const base = { id: r.id, slug: r.slug, address: r.market_pubkey, vault: r.vault, vaultBalance: s(balance ?? 0n) };
    const none = { status: null, outcome: null, yesSupply: '0', noSupply: '0', completeSets: '0', required: '0', shortfall: '0' };
    // Not created on chain yet (its setup transaction is pending): nothing can have been minted.
    if (!account) return { ...base, ...none, ok: true, problem: 'not on chain yet' };
    let market;
    try {
      if (deps.exchangeProgram !== null && account.owner !== deps.exchangeProgram) throw new Error('foreign owner');
      market = decodeClobMarket(account.data);
    } catch {
      return { ...base, ...none, ok: false, problem: 'market account unreadable' };
    }
    const yes = mintSupply(r.yes_mint ? accounts.get(r.yes_mint) : null);
    const no = mintSupply(r.no_mint ? accounts.get(r.no_mint) : null);
    const supply = { resolved: market.status === 'resolved', outcome: market.outcome, yesSupply: yes ?? 0n, noSupply: no ?? 0n };
    const check = orderbookSolvency(supply, balance ?? 0n);
    const problem = balance === null ? 'vault missing' : yes === null || no === null ? 'outcome mint missing' : null;
    return {
      ...base,
      status: market.status,
      outcome: market.outcome,
      yesSupply: s(supply.yesSupply),
      noSupply: s(supply.noSupply),
      completeSets: s(market.completeSets),
      required: s(check.required),
      shortfall: s(check.shortfall),
      ok: check.ok && problem === null,
      problem,
    };
  });
}
