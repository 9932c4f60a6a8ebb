/**
 * Operator market management: create (no payment) and resolve. Creation records the market
 * (`creating`) and its setup intent (two outcome-token mints whose authority is the treasury, and
 * the token accounts of the option wallets and the platform wallet) in one transaction; the
 * outbound job sends it and its confirmation hook turns the market `live`.
 */
import { randomUUID } from 'node:crypto';
import {
  findMarketById,
  insertFamilyATerms,
  insertMarket,
  resolveMarketRow,
  slugExists,
} from '../../../db/repositories/family-a-markets.repository.js';
import { DomainError } from '../../domain/errors.js';
import { humanToRaw } from '../../domain/family-a/money.js';
import { assertTickers, parseOutcomeSide } from '../../domain/family-a/side.js';
import { isValidSlug, slugify } from '../../domain/family-a/slug.js';
import { recordOutboundIntent } from '../outbound/outbound-intents.js';
import { PURPOSES, type SetupParams } from './family-a.builders.js';
import type { FamilyADeps } from './family-a.deps.js';
import { dispatchAndAwait } from './honour-payment.js';
import { requireMarket } from './market-catalog.service.js';
import { presentDetails } from './market.presenter.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { pollUntil } from '../../infra/poll.js';

export interface CreateMarketInput {
  name: string;
  description: string;
  endDate: string;
  slug?: string;
  category?: string;
  tags?: string[];
  imageUrls?: string[];
  targetPrice?: number;
  marketLimit?: number;
  creator?: string;
  /** Outcome tickers (e.g. UP/DOWN); `side` then accepts them case-insensitively. Default YES/NO. */
  yesTicker?: string;
  noTicker?: string;
}

async function freeSlug(deps: FamilyADeps, input: CreateMarketInput): Promise<string> {
  if (input.slug !== undefined) {
    if (!isValidSlug(input.slug))
      throw new DomainError(
        'invalid',
        'VALIDATION_ERROR',
        'slug must be lowercase letters, digits and dashes, not a number (1, 1e10, 0x1f), at most 80 characters',
      );
    if (await slugExists(deps.db, input.slug)) throw new DomainError('conflict', 'SLUG_TAKEN', `slug ${input.slug} is taken`);
    return input.slug;
  }
  const base = slugify(input.name);
  for (let n = 1; n < 50; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await slugExists(deps.db, candidate))) return candidate;
  }
  return `${base}-${randomUUID().slice(0, 8)}`;
}

/** Records the market and its setup intent; returns the market id and the intent id. */
export async function recordMarket(
  deps: FamilyADeps,
  input: CreateMarketInput,
  status: 'creating' | 'pending',
): Promise<{ id: string; outboundId: string | null }> {
  if (Number.isNaN(Date.parse(input.endDate))) throw new DomainError('invalid', 'VALIDATION_ERROR', 'endDate must be an ISO 8601 date');
  // A market that ends in the past would trade although its question is already decided.
  if (Date.parse(input.endDate) <= Date.now()) throw new DomainError('invalid', 'VALIDATION_ERROR', 'endDate must be in the future');
  const priceRaw = input.targetPrice === undefined ? deps.settings.targetPriceRaw : humanToRaw(input.targetPrice, 'targetPrice');
  if (priceRaw <= 0n) throw new DomainError('invalid', 'VALIDATION_ERROR', 'targetPrice must be positive');
  const tickers = assertTickers(input.yesTicker ?? 'YES', input.noTicker ?? 'NO');
  const slug = await freeSlug(deps, input);
  const id = randomUUID();
  const now = new Date().toISOString();
  try {
    return await deps.db.transaction().execute(async (trx) => {
      await insertMarket(trx, {
        id,
        slug,
        kind: 'x402',
        name: input.name,
        description: input.description,
        category: input.category ?? '',
        tags: JSON.stringify(input.tags ?? []),
        image_urls: JSON.stringify(input.imageUrls ?? []),
        status,
        creator: input.creator ?? null,
        yes_ticker: tickers.yes,
        no_ticker: tickers.no,
        yes_mint: deps.keys.mint(id, 'YES').publicKey.toBase58(),
        no_mint: deps.keys.mint(id, 'NO').publicKey.toBase58(),
        end_date: new Date(input.endDate).toISOString(),
        published: 0,
        created_at: now,
        updated_at: now,
      });
      await insertFamilyATerms(trx, {
        market_id: id,
        target_price_raw: priceRaw,
        market_limit: BigInt(input.marketLimit ?? Number(deps.settings.defaultMarketLimit)),
        yes_wallet: deps.keys.optionWallet(id, 'YES').publicKey.toBase58(),
        no_wallet: deps.keys.optionWallet(id, 'NO').publicKey.toBase58(),
        creation_fee_usdc_raw: deps.settings.creationFeeUsdcRaw,
        creation_fee_lamports: deps.settings.creationFeeLamports,
        payment_deadline: status === 'pending' ? new Date(Date.now() + deps.settings.creationWindowSec * 1000).toISOString() : null,
      });
      if (status === 'pending') return { id, outboundId: null };
      const params: SetupParams = { marketId: id };
      return { id, outboundId: await recordOutboundIntent(trx, { idempotencyKey: `a-setup-${id}`, purpose: PURPOSES.setup, params }) };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('conflict', 'SLUG_TAKEN', `slug ${slug} is taken`);
    throw error;
  }
}

/** Sends the setup and waits (bounded) for the market to turn live; answers its details. */
export async function finishSetup(deps: FamilyADeps, id: string, outboundId: string) {
  await dispatchAndAwait(deps, outboundId, deps.settings.deliveryWaitMs * 2);
  // The confirmation hook flips the status right after the row turns confirmed.
  const live = await pollUntil(
    async () => {
      const market = await findMarketById(deps.db, id);
      return market && market.status !== 'creating' ? market : undefined;
    },
    { timeoutMs: 2_000 },
  );
  return presentDetails(live ?? (await findMarketById(deps.db, id))!);
}

export async function adminCreateMarket(deps: FamilyADeps, input: CreateMarketInput) {
  const { id, outboundId } = await recordMarket(deps, input, 'creating');
  return finishSetup(deps, id, outboundId!);
}

export async function adminResolveMarket(deps: FamilyADeps, slug: string, outcomeInput: string) {
  const m = await requireMarket(deps, slug);
  const outcome = parseOutcomeSide(outcomeInput);
  if (m.kind !== 'x402')
    throw new DomainError('invalid', 'VALIDATION_ERROR', `Market ${slug} is a Family B market; resolve it on chain through Family B`);
  if (m.status === 'resolved') {
    if (m.outcome === outcome) return presentDetails(m);
    throw new DomainError('conflict', 'ALREADY_RESOLVED', `Market ${slug} already resolved ${m.outcome}`, { marketSlug: slug });
  }
  if (!(await resolveMarketRow(deps.db, m.id, outcome, new Date().toISOString()))) {
    throw new DomainError('conflict', 'MARKET_NOT_ACTIVE', `Market ${slug} is ${m.status}; only a live market can be resolved`, {
      marketSlug: slug,
    });
  }
  return presentDetails((await findMarketById(deps.db, m.id))!);
}
