/**
 * GET /v2/markets/{id}'s answer, its JSON kept while no connection commits (issue 31). With the
 * rows already kept by db/read-answers.ts, a repeat read still built the view and serialized it
 * on every request; now the serialized envelope itself is kept under the same `data_version`
 * (services/family-b/market-answer.service.ts), so a repeat read is one pragma and a send.
 */
import type { FastifyReply } from 'fastify';
import { parseMarketId, type FamilyBContext } from '../../../services/family-b/context.js';
import { keptIndexedMarket, keptValue } from '../../../services/family-b/market-answer.service.js';
import { readMarketForApi } from '../../../services/family-b/market-reader.js';
import { marketView } from '../../../services/family-b/views.js';
import { ok } from '../../envelopes.js';

/** What Fastify's serializer answers with: the kept bytes go out under the same type. */
export const JSON_UTF8 = 'application/json; charset=utf-8';

/**
 * The handler Family A's slug route delegates integer ids to. Given the reply, it sends the kept
 * JSON (made by the route's own serializer, so the bytes are those it sent before) and returns
 * the reply; otherwise, or when the answer is not kept (a market the index lacks, no read-only
 * connection), it returns the envelope for Fastify to serialize.
 */
export function marketByIdHandler(ctx: FamilyBContext) {
  const owner = {}; // this handler's key among the connection's kept answers
  return async (idParam: string, reply?: FastifyReply) => {
    if (reply) {
      // Kept answers are filed under the canonical id (String of the parsed id), so a kept one is
      // found by the param as given only when it is that canonical form, already validated.
      const kept = keptValue<string>(ctx, owner, idParam);
      if (kept !== undefined) return reply.type(JSON_UTF8).send(kept);
    }
    const id = parseMarketId(idParam);
    if (reply) {
      const json = await keptIndexedMarket(ctx, owner, id, (market) => reply.serialize(ok(marketView(market))));
      if (json !== undefined) return reply.type(JSON_UTF8).send(json);
    }
    return ok(marketView(await readMarketForApi(ctx.db, ctx, id)));
  };
}
