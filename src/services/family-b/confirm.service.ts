/**
 * POST /v2/markets/confirm: after the create transaction landed, the creator publishes the
 * market's website metadata. Requires the market on chain and proof of the creator's key: an
 * Ed25519 signature over `PMX Confirm:<marketId>:<unix seconds>`, fresh within 60 s (the
 * creator's address is public, so naming it proves nothing). Repeatable (later calls update the
 * metadata). The market joins the shared catalog with a slug,
 * so Family A's list and search show it too.
 */
import { randomUUID } from 'node:crypto';
import { findCatalogByChainId, slugTaken, upsertCatalogEntry } from '../../../db/repositories/market-catalog.repository.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { isValidSlug } from '../../domain/family-a/slug.js';
import { slugFor } from '../../domain/family-b/slug.js';
import { DomainError } from '../../domain/errors.js';
import { CONFIRM_WINDOW_SEC, confirmMarketText, isFresh, verifySignedMessage } from '../../domain/signed-message.js';
import { parseMarketId, parseWallet, type FamilyBContext } from './context.js';
import { notCreator } from './errors.js';
import { indexLoadedMarket, requireMarketFromChain } from './market-reader.js';

export interface ConfirmInput {
  marketId: number;
  wallet: string;
  /** Unix seconds of the proof. */
  timestamp: number;
  /** The wallet's Ed25519 signature of `PMX Confirm:<marketId>:<timestamp>` (base58 or base64). */
  signature: string;
  title?: string;
  description?: string;
  category?: string;
  tags?: string[];
  imageUrls?: { market?: string; yes?: string; no?: string };
  slug?: string;
}

export async function confirmMarket(ctx: FamilyBContext, input: ConfirmInput) {
  const wallet = parseWallet(input.wallet);
  const marketId = parseMarketId(input.marketId);
  assertCreatorProof(input, marketId);
  const market = await requireMarketFromChain(ctx, marketId);
  const a = market.account;
  if (!a.creator.equals(wallet)) throw notCreator(a.creator.toBase58(), wallet.toBase58());
  await indexLoadedMarket(ctx.db, market);

  const existing = await findCatalogByChainId(ctx.db, marketId);
  const id = existing?.id ?? randomUUID();
  const slug = input.slug ?? existing?.slug ?? slugFor(input.title ?? a.title, marketId);
  if (!isValidSlug(slug)) {
    throw new DomainError(
      'invalid',
      'VALIDATION_ERROR',
      'slug must be lowercase letters, digits and single dashes, not a number (integers address Family B markets)',
    );
  }
  if (await slugTaken(ctx.db, slug, id)) throw new DomainError('conflict', 'SLUG_TAKEN', `slug ${slug} is already used by another market`);

  const now = new Date().toISOString();
  const imageUrls = { market: input.imageUrls?.market ?? null, yes: input.imageUrls?.yes ?? null, no: input.imageUrls?.no ?? null };
  try {
    await upsertCatalogEntry(ctx.db, {
      id,
      slug,
      kind: a.mode,
      chain_market_id: marketId,
      name: input.title ?? a.title,
      description: input.description ?? a.description,
      category: input.category ?? existing?.category ?? '',
      tags: JSON.stringify(input.tags ?? (existing ? JSON.parse(existing.tags) : [])),
      image_urls: JSON.stringify(imageUrls),
      status: a.status,
      outcome: a.winningSide,
      creator: a.creator.toBase58(),
      yes_ticker: a.yesTicker,
      no_ticker: a.noTicker,
      yes_mint: market.yesMint.toBase58(),
      no_mint: market.noMint.toBase58(),
      end_date: new Date(Number(a.resolutionTime) * 1000).toISOString(),
      resolved_at: a.resolvedAt > 0n ? new Date(Number(a.resolvedAt) * 1000).toISOString() : null,
      published: 1,
      created_at: existing?.created_at ?? now,
      updated_at: now,
    });
  } catch (error) {
    // Two confirms of different markets with the same slug both passed slugTaken: the loser gets 409.
    if (isUniqueViolation(error)) throw new DomainError('conflict', 'SLUG_TAKEN', `slug ${slug} is already used by another market`);
    throw error;
  }
  return {
    marketId: Number(marketId),
    id,
    slug,
    title: input.title ?? a.title,
    status: a.status,
    mintsInitialized: a.mintsInitialized,
    imageUrls,
  };
}

function assertCreatorProof(input: ConfirmInput, marketId: bigint): void {
  if (!isFresh(input.timestamp, Date.now(), CONFIRM_WINDOW_SEC)) {
    throw new DomainError(
      'forbidden',
      'SIGNATURE_EXPIRED',
      `timestamp must be within ${CONFIRM_WINDOW_SEC} s of the server's clock (now ${Math.floor(Date.now() / 1000)})`,
    );
  }
  const text = confirmMarketText(marketId, input.timestamp);
  const check = verifySignedMessage(text, input.wallet, input.signature);
  if (!check.ok)
    throw new DomainError(
      'forbidden',
      'INVALID_SIGNATURE',
      `signature must be the wallet's Ed25519 signature of "${text}": ${check.message}`,
    );
}

/** The website images of a market, for the single-market position view. */
export async function marketImages(
  ctx: FamilyBContext,
  marketId: bigint,
): Promise<{ market: string | null; yes: string | null; no: string | null }> {
  const entry = await findCatalogByChainId(ctx.db, marketId);
  const parsed = entry ? (JSON.parse(entry.image_urls) as Partial<Record<'market' | 'yes' | 'no', string | null>>) : {};
  return { market: parsed.market ?? null, yes: parsed.yes ?? null, no: parsed.no ?? null };
}
