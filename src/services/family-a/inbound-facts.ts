/**
 * For each credit of a landed transaction to a Family A platform wallet: which wallet it reached
 * (the platform wallet, or an option wallet of which market and side), and what in the database
 * could still honour it (the sender's quotes, pending creations, claims). The decision itself is
 * pure (domain/family-a/inbound-credits.ts).
 */
import { findMarketsByMints, findMarketsByOptionWallets, type MarketRow } from '../../../db/repositories/family-a-markets.repository.js';
import { listPendingCreations } from '../../../db/repositories/family-a-creations.repository.js';
import { findClaim, listMatchingQuotes } from '../../../db/repositories/family-a-trades.repository.js';
import { inboundCredits, SOL, type CreditPurpose, type InboundCredit } from '../../domain/family-a/inbound-credits.js';
import type { OutcomeSide } from '../../domain/family-a/side.js';
import type { FamilyADeps } from './family-a.deps.js';
import type { LandedTransfer } from './x402-payment.verifier.js';

/** Whose keypair signs a refund: the platform wallet, or an option wallet. */
export type RefundSource = 'PLATFORM' | { marketId: string; side: OutcomeSide };

export interface CreditFacts {
  credit: InboundCredit;
  marketId: string | null;
  source: RefundSource;
  purpose: CreditPurpose;
}

const isLive = (m: MarketRow) => m.status === 'live' || m.status === 'active';

async function tradePurpose(
  deps: FamilyADeps,
  landed: LandedTransfer,
  credit: InboundCredit,
  m: MarketRow,
  side: OutcomeSide,
  kind: 'buy' | 'sell',
): Promise<CreditPurpose> {
  const live = isLive(m);
  const sender = credit.sender;
  if (!live || !sender || !landed.signers.includes(sender.owner))
    return { kind: 'trade', marketStatus: m.status, live, quoteExpiriesMs: [] };
  const at = landed.blockTimeMs ?? Date.now();
  const quotes = await listMatchingQuotes(deps.db, {
    marketId: m.id,
    wallet: sender.owner,
    side,
    kind,
    amountRaw: credit.amount,
    issuedFrom: new Date(at - deps.settings.quoteTtlMs).toISOString(),
    issuedTo: new Date(at + 1_000).toISOString(),
  });
  return { kind: 'trade', marketStatus: m.status, live, quoteExpiriesMs: quotes.map((q) => Date.parse(q.expires_at)) };
}

/** The creation fee is USDC and SOL in one transaction from the creator: a part alone pays nothing. */
async function creationPurpose(
  deps: FamilyADeps,
  landed: LandedTransfer,
  credit: InboundCredit,
  all: InboundCredit[],
): Promise<CreditPurpose> {
  const sender = credit.sender;
  if (!sender || !landed.signers.includes(sender.owner)) return { kind: 'creation', deadlinesMs: [] };
  const platform = credit.owner;
  const paid = (asset: string) =>
    all.filter((c) => c.owner === platform && c.asset === asset && c.sender?.owner === sender.owner).reduce((s, c) => s + c.amount, 0n);
  const usdc = paid(deps.usdcMint);
  const lamports = paid(SOL);
  const at = landed.blockTimeMs ?? Date.now();
  const pending = await listPendingCreations(deps.db, sender.owner);
  const deadlines = pending
    .filter((m) => m.payment_deadline !== null && at <= Date.parse(m.payment_deadline) + 999)
    .filter((m) => usdc >= BigInt(m.creation_fee_usdc_raw ?? 0) && lamports >= BigInt(m.creation_fee_lamports ?? 0))
    .map((m) => Date.parse(m.payment_deadline!));
  return { kind: 'creation', deadlinesMs: deadlines };
}

export async function loadCreditFacts(deps: FamilyADeps, landed: LandedTransfer): Promise<CreditFacts[]> {
  const platform = deps.keys.platform().publicKey.toBase58();
  const gained = new Set<string>();
  for (const t of landed.tokenBalances) if (t.post > t.pre) gained.add(t.owner);
  for (const b of landed.lamportBalances) if (b.post > b.pre) gained.add(b.account);
  gained.delete(platform);
  const optionWallets = new Map<string, { m: MarketRow; side: OutcomeSide }>();
  for (const m of await findMarketsByOptionWallets(deps.db, [...gained])) {
    if (m.yes_wallet) optionWallets.set(m.yes_wallet, { m, side: 'YES' });
    if (m.no_wallet) optionWallets.set(m.no_wallet, { m, side: 'NO' });
  }
  const credits = inboundCredits(landed, (w) => w === platform || optionWallets.has(w));
  const outcomeMints = credits.filter((c) => c.owner === platform && c.asset !== SOL && c.asset !== deps.usdcMint).map((c) => c.asset);
  const mintMarkets = new Map<string, { m: MarketRow; side: OutcomeSide }>();
  for (const m of await findMarketsByMints(deps.db, outcomeMints)) {
    if (m.yes_mint) mintMarkets.set(m.yes_mint, { m, side: 'YES' });
    if (m.no_mint) mintMarkets.set(m.no_mint, { m, side: 'NO' });
  }

  const facts: CreditFacts[] = [];
  for (const credit of credits) {
    const option = optionWallets.get(credit.owner);
    if (option) {
      const { m, side } = option;
      const source = { marketId: m.id, side };
      const ownMint = side === 'YES' ? m.yes_mint : m.no_mint;
      let purpose: CreditPurpose;
      if (credit.asset === deps.usdcMint) purpose = await tradePurpose(deps, landed, credit, m, side, 'buy');
      else if (credit.asset === ownMint) purpose = await tradePurpose(deps, landed, credit, m, side, 'sell');
      else purpose = { kind: 'none', why: `the ${side} option wallet of ${m.slug} takes USDC (buys) and ${side} tokens (sells) only` };
      facts.push({ credit, marketId: m.id, source, purpose });
      continue;
    }
    const outcome = mintMarkets.get(credit.asset);
    if (outcome) {
      const { m, side } = outcome;
      const claimed = credit.sender ? (await findClaim(deps.db, m.id, credit.sender.owner)) !== undefined : false;
      facts.push({
        credit,
        marketId: m.id,
        source: 'PLATFORM',
        purpose: { kind: 'claim', resolved: m.status === 'resolved', winning: m.outcome === side, claimed },
      });
    } else if (credit.asset === deps.usdcMint || credit.asset === SOL) {
      facts.push({ credit, marketId: null, source: 'PLATFORM', purpose: await creationPurpose(deps, landed, credit, credits) });
    } else {
      facts.push({
        credit,
        marketId: null,
        source: 'PLATFORM',
        purpose: { kind: 'none', why: 'the platform wallet takes creation fees (USDC and SOL) and winning tokens of claims only' },
      });
    }
  }
  return facts;
}
