/**
 * Operator management of orderbook markets. Creation records the catalog row (`creating`), its
 * orderbook terms and the `create_market` intent in ONE database transaction; the outbound job
 * lands it (resumed after any crash) and its hook indexes the account, turning the row `active`.
 * Pause, resume and resolve read the market account first, so repeating one is answered with
 * the current state and sends nothing; what the state forbids is refused with 409.
 */
import { randomUUID } from 'node:crypto';
import { insertCatalogMarket, insertClobTerms, findClobMarketById } from '../../../db/repositories/clob-markets.repository.js';
import { slugTaken } from '../../../db/repositories/market-catalog.repository.js';
import { isUniqueViolation } from '../../../db/errors.js';
import {
  type ClobMarketStatus,
  decodeClobMarket,
  findClobMarketPda,
  findClobOutcomeMintPda,
  findClobVaultAddress,
  getClobMarketStatusInstruction,
  type MarketStatusAction,
} from '@pmx/programs';
import { DomainError } from '../../domain/errors.js';
import { DEFAULT_MIN_ORDER_SIZE, MAX_ORDER_QUANTITY } from '../../domain/orderbook/index.js';
import { assertTickers } from '../../domain/family-a/side.js';
import { isValidSlug, slugify } from '../../domain/family-a/slug.js';
import { pollUntil } from '../../infra/poll.js';
import { recordOutboundIntent } from '../outbound/outbound-intents.js';
import { awaitOutbound } from '../outbound/outbound-wait.js';
import { sendAndConfirmPlatformTransaction } from '../platform-transaction.js';
import type { FamilyCContext } from './context.js';
import { requireClobMarket } from './market-catalog.service.js';
import { applyClobMarketAccount } from './market-index.service.js';
import { CLOB_MARKET_SETUP, type ClobMarketSetupParams } from './market-setup.builder.js';

export interface CreateClobMarketInput {
  title: string;
  description: string;
  resolutionRules: string;
  category: string;
  endDate: string;
  imageUrl?: string;
  yesTicker: string;
  noTicker: string;
  slug?: string;
  /** Smallest order quantity, outcome-token raw units as a decimal string; default one token. */
  minOrderSize?: string;
}

async function freeSlug(ctx: FamilyCContext, input: CreateClobMarketInput): Promise<string> {
  if (input.slug !== undefined) {
    if (!isValidSlug(input.slug))
      throw new DomainError(
        'invalid',
        'VALIDATION_ERROR',
        'slug must be lowercase letters, digits and dashes, not a number (1, 1e10, 0x1f), at most 80 characters',
      );
    if (await slugTaken(ctx.db, input.slug)) throw new DomainError('conflict', 'SLUG_TAKEN', `slug ${input.slug} is taken`);
    return input.slug;
  }
  const base = slugify(input.title);
  for (let n = 1; n < 50; n++) {
    const candidate = n === 1 ? base : `${base}-${n}`;
    if (!(await slugTaken(ctx.db, candidate))) return candidate;
  }
  return `${base}-${randomUUID().slice(0, 8)}`;
}

function validate(input: CreateClobMarketInput): { endDate: string; tickers: { yes: string; no: string }; minOrderSize: bigint } {
  const end = Date.parse(input.endDate);
  if (Number.isNaN(end)) throw new DomainError('invalid', 'VALIDATION_ERROR', 'endDate must be an ISO 8601 date');
  if (end <= Date.now()) throw new DomainError('invalid', 'VALIDATION_ERROR', 'endDate must be in the future');
  if (input.imageUrl !== undefined && !/^https?:\/\/[^\s]+$/i.test(input.imageUrl)) {
    throw new DomainError('invalid', 'VALIDATION_ERROR', 'imageUrl must be an http(s) URL');
  }
  return {
    endDate: new Date(end).toISOString(),
    tickers: assertTickers(input.yesTicker, input.noTicker),
    minOrderSize: minOrderSizeOf(input.minOrderSize),
  };
}

/** The market's minimum order size: one token unless named; at most the largest order quantity. */
function minOrderSizeOf(text: string | undefined): bigint {
  if (text === undefined) return DEFAULT_MIN_ORDER_SIZE;
  const size = /^[0-9]{1,20}$/.test(text) ? BigInt(text) : 0n;
  if (size < 1n || size > MAX_ORDER_QUANTITY) {
    throw new DomainError(
      'invalid',
      'VALIDATION_ERROR',
      `minOrderSize must be a whole number of raw units from 1 to ${MAX_ORDER_QUANTITY}`,
    );
  }
  return size;
}

/** Records the market and its creation intent, lands it (bounded wait), answers the row. */
export async function createClobMarket(ctx: FamilyCContext, input: CreateClobMarketInput, waitMs: number) {
  const { endDate, tickers, minOrderSize } = validate(input);
  const slug = await freeSlug(ctx, input);
  const id = randomUUID();
  const now = new Date().toISOString();
  const p = ctx.programId;
  let outboundId: string;
  try {
    outboundId = await ctx.db.transaction().execute(async (trx) => {
      await insertCatalogMarket(trx, {
        id,
        slug,
        kind: 'clob',
        name: input.title,
        description: input.description,
        category: input.category,
        tags: '[]',
        image_urls: JSON.stringify(input.imageUrl ? [input.imageUrl] : []),
        status: 'creating',
        creator: ctx.operator.publicKey.toBase58(),
        yes_ticker: tickers.yes,
        no_ticker: tickers.no,
        yes_mint: findClobOutcomeMintPda(id, 'yes', p)[0].toBase58(),
        no_mint: findClobOutcomeMintPda(id, 'no', p)[0].toBase58(),
        end_date: endDate,
        published: 0,
        created_at: now,
        updated_at: now,
      });
      await insertClobTerms(trx, {
        market_id: id,
        market_pubkey: findClobMarketPda(id, p)[0].toBase58(),
        vault: findClobVaultAddress(id, ctx.usdcMint, p).toBase58(),
        resolution_rules: input.resolutionRules,
        image_url: input.imageUrl ?? '',
        slot: 0n,
        min_order_size: minOrderSize,
      });
      const params: ClobMarketSetupParams = { marketId: id };
      return recordOutboundIntent(trx, { idempotencyKey: `c-market-create-${id}`, purpose: CLOB_MARKET_SETUP, params });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new DomainError('conflict', 'SLUG_TAKEN', `slug ${slug} is taken`);
    throw error;
  }
  await ctx
    .dispatchOutbound(outboundId)
    .catch((err: Error) => ctx.log.warn({ outboundId, err: err.message }, 'enqueue failed; the resume scan will pick it up'));
  await awaitOutbound(ctx.db, outboundId, waitMs);
  // The confirmation hook indexes the account right after the row turns confirmed.
  const live = await pollUntil(
    async () => {
      const row = await findClobMarketById(ctx.db, id);
      return row && row.status !== 'creating' ? row : undefined;
    },
    { timeoutMs: 2_000 },
  );
  return live ?? (await findClobMarketById(ctx.db, id))!;
}

const ALLOWED: Record<MarketStatusAction, { from: ClobMarketStatus[]; to: ClobMarketStatus }> = {
  pause: { from: ['active'], to: 'paused' },
  resume: { from: ['paused'], to: 'active' },
  resolve: { from: ['active', 'paused'], to: 'resolved' },
};

/** Pause, resume or resolve; idempotent; 409 when the market's state forbids it. */
export async function changeClobMarketStatus(ctx: FamilyCContext, idOrSlug: string, action: MarketStatusAction, outcome?: 'yes' | 'no') {
  const row = await requireClobMarket(ctx, idOrSlug);
  const account = await ctx.chain.getAccount(row.market_pubkey);
  if (!account) throw new DomainError('unavailable', 'MARKET_NOT_ON_CHAIN', `Market ${row.id} is not on chain yet; try again shortly`);
  const onChain = decodeClobMarket(account.data);
  const rule = ALLOWED[action];
  const already = onChain.status === rule.to && (action !== 'resolve' || onChain.outcome === outcome);
  if (!already) {
    if (action === 'resolve' && onChain.status === 'resolved') {
      throw new DomainError('conflict', 'ALREADY_RESOLVED', `Market ${row.id} is already resolved ${onChain.outcome}`, {
        outcome: onChain.outcome,
      });
    }
    if (!rule.from.includes(onChain.status)) {
      throw new DomainError('conflict', 'INVALID_STATUS_TRANSITION', `Cannot ${action} a ${onChain.status} market`, {
        marketStatus: onChain.status,
      });
    }
    const outcomeByte = outcome === undefined ? undefined : outcome === 'yes' ? 0 : 1;
    const ix = getClobMarketStatusInstruction({
      operator: ctx.operator.publicKey,
      marketUuid: row.id,
      action,
      outcome: outcomeByte,
      programId: ctx.programId,
    });
    const signature = await sendAndConfirmPlatformTransaction(ctx.chain, [ix], [ctx.operator]);
    ctx.log.info({ market: row.id, action, outcome, signature }, 'orderbook market status changed');
  }
  const change = await applyClobMarketAccount(ctx, row, await ctx.chain.getAccount(row.market_pubkey));
  return { market: (await findClobMarketById(ctx.db, row.id))!, change };
}
