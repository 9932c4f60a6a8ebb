/**
 * The vault checks of the console's Money page, one row per market: Family B vaults against what
 * their holders and fee owners can claim, orderbook vaults against their outcome supply (the
 * rules: src/domain/solvency/solvency-rules.ts). Each family's market accounts, vaults and mints
 * are read fresh from the chain, never from the index, in getMultipleAccounts chunks.
 */
import { decodeClobMarket, decodeMarketAccount, toMarketState } from '@pmx/programs';
import type { Kysely } from 'kysely';
import { newestChainMarkets, newestOrderbookMarkets } from '../../../db/repositories/solvency.repository.js';
import type { Database } from '../../../db/schema.js';
import { familyBSolvency, orderbookSolvency } from '../../domain/solvency/solvency-rules.js';
import type { AccountSnapshot, ChainClient } from '../../chain/chain-client.js';
import { timeSlicer } from '../../infra/time-slice.js';
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

/**
 * `items.map(fn)` in slices of 5 ms with a turn of the event loop between them: decoding 500
 * market accounts measured 60–170 ms in one block (their string slots), too long to hold requests.
 */
async function mapSliced<T, R>(items: T[], fn: (item: T) => R): Promise<R[]> {
  const slice = timeSlicer();
  const out: R[] = [];
  for (const item of items) {
    await slice();
    out.push(fn(item));
  }
  return out;
}

export async function familyBVaults(deps: MarketReadDeps, limit: number): Promise<FamilyBVaultRow[]> {
  const rows = await newestChainMarkets(deps.db, limit);
  const markets = await readAccounts(
    deps.chain,
    rows.map((r) => r.address),
  );
  // The vault's address comes from the account (deriving 500 ATAs would cost ~1 ms of curve checks each).
  const decoded = await mapSliced(rows, (r) => ({ row: r, ...decodeMarket(markets.get(r.address), deps.marketProgram) }));
  const vaults = await readAccounts(
    deps.chain,
    decoded.flatMap((d) => (d.vault ? [d.vault] : [])),
  );
  return decoded.map(({ row, state, vault, problem }) => {
    const balance = vault ? tokenAmount(vaults.get(vault), deps.usdcMint) : null;
    const base = { marketId: s(BigInt(row.market_id)), address: row.address, vault: vault ?? '', vaultBalance: s(balance ?? 0n) };
    if (!state) {
      const empty = { mode: null, status: null, yesSupply: '0', noSupply: '0', collateral: '0', unclaimedFees: '0', owedToHolders: '0' };
      return { ...base, ...empty, required: '0', shortfall: '0', ok: false, problem };
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

function decodeMarket(account: AccountSnapshot | null | undefined, program: string) {
  if (!account || account.owner !== program) return { state: null, vault: null, problem: 'market account missing' };
  try {
    const market = decodeMarketAccount(account.data);
    return { state: toMarketState(market), vault: market.vault.toBase58(), problem: null };
  } catch {
    return { state: null, vault: null, problem: 'market account unreadable' };
  }
}

export async function orderbookVaults(deps: MarketReadDeps, limit: number): Promise<OrderbookVaultRow[]> {
  const rows = await newestOrderbookMarkets(deps.db, limit);
  const mints = rows.flatMap((r) => [r.yes_mint, r.no_mint].filter((m): m is string => m !== null));
  const accounts = await readAccounts(deps.chain, [...rows.flatMap((r) => [r.market_pubkey, r.vault]), ...mints]);
  return mapSliced(rows, (r): OrderbookVaultRow => {
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
