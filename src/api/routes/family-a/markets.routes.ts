/**
 * Family A market reads: GET /v2/markets, /v2/markets/search, /v2/markets/{slug},
 * /v2/markets/{slug}/details.
 *
 * Family B shares the prefix with integer ids (/v2/markets/{id}) and Fastify cannot register two
 * parametric routes on one segment, so this module owns GET /v2/markets/:slug and delegates an
 * all-digits param to `app.familyBMarketById(id, request, reply)` when Family B has decorated
 * the ROOT instance with it (`app.decorate('familyBMarketById', handler)`, before or after this
 * plugin registers: decorations are looked up at request time). Without it an integer id
 * answers 404 "Market not found" in Family B's envelope. Slugs can never be all digits.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { PUBKEY_PATTERN } from '@pmx/programs';
import { isNumberLike } from '../../families.js';
import { ok } from '../../envelopes.js';
import { answerBytes, answerMemo, sendAnswer } from '../../answer-memo.js';
import { DomainError } from '../../../domain/errors.js';
import type { FamilyADeps } from '../../../services/family-a/family-a.deps.js';
import { keptAnswer } from '../../../services/family-a/market-catalog.service.js';
import {
  listCatalog,
  marketDetails,
  marketSummary,
  type CatalogPage,
  type ListQuery,
} from '../../../services/family-a/market-catalog.service.js';

export type FamilyBMarketHandler = (
  id: number,
  request: FastifyRequest,
  reply: FastifyReply,
  view: 'market' | 'details',
) => Promise<{ success: true; data: unknown } | FastifyReply>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Decorated on the root by Family B (src/features/family-b.feature.ts); absent without it. */
    familyBMarketById?: FamilyBMarketHandler;
  }
}

const Envelope = Type.Object({ success: Type.Literal(true), data: Type.Unknown() });
const Page = {
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  offset: Type.Integer({ minimum: 0, maximum: 10_000_000, default: 0 }),
  cursor: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        'nextCursor of the previous page: the next page starts after its last market (cheaper than a large offset; not combined with offset)',
    }),
  ),
};

/**
 * Ajv's query coercion turns "Infinity" and "1e400" into Infinity, which passes its integer and
 * range keywords and reached SQLite as a datatype mismatch (500); refuse anything not a safe
 * integer here as the 400 the schema means.
 */
function finitePage<T extends { limit: number; offset: number }>(q: T): T {
  for (const key of ['limit', 'offset'] as const) {
    if (!Number.isSafeInteger(q[key])) throw new DomainError('invalid', 'VALIDATION_ERROR', `querystring/${key} must be a finite integer`);
  }
  return q;
}
const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 80 }) });

async function delegate(
  request: FastifyRequest,
  reply: FastifyReply,
  slug: string,
  view: 'market' | 'details',
): Promise<{ success: true; data: unknown } | FastifyReply> {
  if (!/^[1-9][0-9]{0,15}$/.test(slug)) {
    throw new DomainError(
      'invalid',
      'INVALID_MARKET_ID',
      `market id must be a canonical decimal integer from 1 to ${Number.MAX_SAFE_INTEGER}, got "${slug}"`,
    );
  }
  if (view === 'details') {
    throw new DomainError(
      'not_found',
      'NOT_FOUND',
      `Family B markets have no /details view: GET /v2/markets/${slug} carries reserves, odds, fees and mint status`,
    );
  }
  const handler = request.server.familyBMarketById;
  if (handler) return handler(Number(slug), request, reply, view);
  throw new DomainError('not_found', 'NOT_FOUND', 'Market not found');
}

export function marketRoutes(deps: FamilyADeps) {
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    // A page comes back as the same object while the catalog version stands: its JSON too.
    const pageBytes = answerMemo((page: CatalogPage) => ok(page));
    // Each route's answers kept while no connection commits (kept-answers.ts): a repeat read is
    // one data_version pragma and a send, without the catalog version read and the page lookup.
    const kept = { list: {}, search: {}, summary: {} };
    const sendPage = async (owner: object, query: ListQuery, reply: FastifyReply) => {
      const key = JSON.stringify([query.status, query.q, query.creator, query.published, query.limit, query.offset, query.cursor]);
      const make = async () => pageBytes(reply, await listCatalog(deps, query));
      return sendAnswer(reply, (await keptAnswer(deps, owner, key, make)) ?? (await make()));
    };
    app.get(
      '/v2/markets',
      {
        schema: {
          tags: ['A'],
          summary: 'List markets (Family A summaries), newest first',
          querystring: Type.Object({
            status: Type.Optional(
              Type.Union([Type.Literal('live'), Type.Literal('active'), Type.Literal('resolved'), Type.Literal('pending')]),
            ),
            q: Type.Optional(Type.String({ maxLength: 200 })),
            creator: Type.Optional(Type.String({ pattern: PUBKEY_PATTERN, description: 'a wallet address (base58 public key)' })),
            published: Type.Optional(Type.Boolean()),
            ...Page,
          }),
          response: { 200: Envelope },
        },
      },
      async ({ query }, reply) => sendPage(kept.list, finitePage(query), reply),
    );

    app.get(
      '/v2/markets/search',
      {
        schema: {
          tags: ['A'],
          summary: 'Full-text search over market names and descriptions (case-insensitive, word prefixes)',
          querystring: Type.Object({ q: Type.String({ minLength: 1, maxLength: 200 }), ...Page }),
          response: { 200: Envelope },
        },
      },
      async ({ query }, reply) => sendPage(kept.search, finitePage(query), reply),
    );

    app.get(
      '/v2/markets/:slug',
      {
        schema: {
          tags: ['A', 'B'],
          summary: 'One market: by slug (Family A summary) or by integer id (Family B details: reserves, odds, fees, mint status)',
          params: SlugParams,
          response: { 200: Envelope },
        },
      },
      async (request, reply) => {
        const { slug } = request.params;
        if (isNumberLike(slug)) return delegate(request, reply, slug, 'market');
        // The summary is a function of the market's row alone (no chain, no clock): kept.
        const bytes = await keptAnswer(deps, kept.summary, slug, async () => answerBytes(reply, ok(await marketSummary(deps, slug))));
        if (bytes !== undefined) return sendAnswer(reply, bytes);
        return ok(await marketSummary(deps, slug));
      },
    );

    app.get(
      '/v2/markets/:slug/details',
      {
        schema: {
          tags: ['A'],
          summary: 'Market details: mints (cas), option wallets, target price',
          params: SlugParams,
          response: { 200: Envelope },
        },
      },
      async (request, reply) => {
        const { slug } = request.params;
        if (isNumberLike(slug)) return delegate(request, reply, slug, 'details');
        return ok(await marketDetails(deps, slug));
      },
    );
  };
}
