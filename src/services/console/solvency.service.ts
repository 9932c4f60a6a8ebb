/**
 * The balances that make the service solvent (the console's Money page and GET
 * /v2/admin/solvency): the platform's wallets against their SOL thresholds, each Family B vault
 * against its liabilities and each orderbook vault against its outcome supply, read from the chain.
 *
 * The work is capped so that no request can make it long: at most `marketsPerFamily` markets of
 * each family (the newest; the report says so), read in getMultipleAccounts chunks of 100, and
 * the report is kept `ttlMs` (5 s): concurrent and repeated page loads share one read.
 */
import type { ChainClient } from '../../chain/chain-client.js';
import { solBalanceOk } from '../../domain/solvency/solvency-rules.js';
import { familyBVaults, orderbookVaults, type MarketReadDeps } from './solvency-markets.js';
import { readAccounts, tokenAmount } from './solvency-reads.js';
import { findTokenAccountAddress } from '@pmx/programs';
import { PublicKey } from '@solana/web3.js';

/** The newest markets of each family a report checks. */
export const SOLVENCY_MARKETS_PER_FAMILY = 500;
export const SOLVENCY_TTL_MS = 5_000;

export interface SolvencyWallet {
  role: string;
  address: string;
  /** Why it matters (what it pays or receives). */
  purpose: string;
  /** Its USDC account is read too (ATA of the wallet and the USDC mint). */
  usdc: boolean;
  /** Below this it is flagged (it pays fees or rent); null = it only receives. */
  minLamports: bigint | null;
}

export interface SolvencyDeps extends MarketReadDeps {
  chain: ChainClient;
  wallets: SolvencyWallet[];
  marketsPerFamily?: number;
}

export type SolvencyReport = Awaited<ReturnType<typeof solvencyReport>>;

async function walletBalances(deps: SolvencyDeps) {
  const usdc = new PublicKey(deps.usdcMint);
  const wallets = deps.wallets.map((w) => ({
    ...w,
    usdcAccount: w.usdc ? findTokenAccountAddress(new PublicKey(w.address), usdc).toBase58() : null,
  }));
  const accounts = await readAccounts(
    deps.chain,
    wallets.flatMap((w) => (w.usdcAccount ? [w.address, w.usdcAccount] : [w.address])),
  );
  return wallets.map((w) => {
    const lamports = accounts.get(w.address)?.lamports ?? 0n;
    const usdcAccount = w.usdcAccount;
    return {
      role: w.role,
      address: w.address,
      purpose: w.purpose,
      lamports: String(lamports),
      minLamports: w.minLamports === null ? null : String(w.minLamports),
      usdcRaw: usdcAccount === null ? null : String(tokenAmount(accounts.get(usdcAccount), deps.usdcMint) ?? 0n),
      ok: solBalanceOk(lamports, w.minLamports),
    };
  });
}

export async function solvencyReport(deps: SolvencyDeps, now = new Date()) {
  const limit = deps.marketsPerFamily ?? SOLVENCY_MARKETS_PER_FAMILY;
  // One after the other: each part already reads in chunks, and the cluster serves other work meanwhile.
  const wallets = await walletBalances(deps);
  const familyB = await familyBVaults(deps, limit);
  const orderbook = await orderbookVaults(deps, limit);
  const failing = (rows: { ok: boolean }[]) => rows.filter((r) => !r.ok).length;
  return {
    checkedAt: now.toISOString(),
    marketsPerFamily: limit,
    failing: { wallets: failing(wallets), familyB: failing(familyB), orderbook: failing(orderbook) },
    wallets,
    familyB,
    orderbook,
  };
}

/**
 * The report, read at most once per `ttlMs` after the last read finished; callers meanwhile,
 * and while a read is in flight, share it. A failed read is not kept.
 */
export function cachedSolvency(deps: SolvencyDeps, ttlMs = SOLVENCY_TTL_MS, clock = () => Date.now()) {
  let kept: { report: Promise<SolvencyReport>; doneAt: number | null } | null = null;
  return (): Promise<SolvencyReport> => {
    if (kept && (kept.doneAt === null || clock() - kept.doneAt < ttlMs)) return kept.report;
    const entry: { report: Promise<SolvencyReport>; doneAt: number | null } = {
      report: solvencyReport(deps, new Date(clock())),
      doneAt: null,
    };
    kept = entry;
    entry.report.then(
      () => (entry.doneAt = clock()),
      () => {
        if (kept === entry) kept = null;
      },
    );
    return entry.report;
  };
}
