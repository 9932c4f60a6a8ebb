/**
 * The operator console's cross-family pages, behind the admin token: the overview (/admin) and
 * the markets of every family (/admin/markets), their JSON twins under /v2/admin/console/, the
 * samples the overview's charts draw (/admin/console/samples.json: under /admin so the session
 * cookie reaches it) and the chart library, uPlot, served from its npm package (no CDN).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static } from 'typebox';
import { consoleMarkets } from '../../../services/console/console-markets.service.js';
import { consoleOverview, consoleSamples, type ConsoleDeps } from '../../../services/console/console-overview.service.js';
import { ok } from '../../envelopes.js';
import { adminPage } from '../../pages/admin-guard.js';
import { requireAdmin } from '../../plugins/admin-auth.js';
import { marketsPage, overviewPage } from './console-pages.js';

const uplotDir = path.dirname(createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'));
const ASSETS = {
  'uplot.js': { type: 'application/javascript', file: 'uPlot.iife.min.js' },
  'uplot.css': { type: 'text/css', file: 'uPlot.min.css' },
} as const;

export const MarketsQuery = Type.Object({
  family: Type.Optional(Type.Union([Type.Literal('A'), Type.Literal('B'), Type.Literal('C')])),
  status: Type.Optional(Type.String({ maxLength: 40 })),
  search: Type.Optional(Type.String({ maxLength: 80 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 200 })),
});
const HoursQuery = Type.Object({ hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 168, default: 6 })) });
const Envelope = Type.Object({ success: Type.Literal(true), data: Type.Unknown() });

/** An empty filter field is no filter. */
function marketsQuery(query: Static<typeof MarketsQuery>) {
  return { family: query.family, status: query.status || undefined, search: query.search || undefined, limit: query.limit ?? 200 };
}

export function consoleRoutes(deps: ConsoleDeps) {
  const guard = adminPage();
  const assets = Object.fromEntries(
    Object.entries(ASSETS).map(([name, a]) => [name, { ...a, body: readFileSync(path.join(uplotDir, a.file)) }]),
  );
  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    const hide = { hide: true } as const;
    app.get('/admin', { schema: hide }, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      return reply.type('text/html').send(overviewPage(await consoleOverview(deps)));
    });
    app.get('/admin/markets', { schema: { ...hide, querystring: MarketsQuery } }, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      const query = marketsQuery(request.query);
      return reply.type('text/html').send(marketsPage(await consoleMarkets(deps.db, query), query));
    });
    app.get('/admin/console/samples.json', { schema: { ...hide, querystring: HoursQuery } }, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      return ok(await consoleSamples(deps, request.query.hours ?? 6));
    });
    app.get(
      '/admin/assets/:name',
      { schema: { ...hide, params: Type.Object({ name: Type.String({ maxLength: 20 }) }) } },
      async (request, reply) => {
        const asset = assets[request.params.name];
        if (!asset) return reply.status(404).send({ success: false, error: { code: 'NOT_FOUND', message: 'No such asset' } });
        return reply.type(asset.type).header('cache-control', 'public, max-age=86400').send(asset.body);
      },
    );

    const admin = { onRequest: requireAdmin() };
    app.get(
      '/v2/admin/console/overview',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary: 'The console overview: markets, orders, fills, funds awaiting, failed jobs',
          response: { 200: Envelope },
        },
      },
      async () => ok(await consoleOverview(deps)),
    );
    app.get(
      '/v2/admin/console/markets',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary: "Every family's markets, with the orderbook's book and settlement per market",
          querystring: MarketsQuery,
          response: { 200: Envelope },
        },
      },
      async (request) => ok(await consoleMarkets(deps.db, marketsQuery(request.query))),
    );
    app.get(
      '/v2/admin/console/samples',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary: 'Per-minute samples of the last hours (nodes summed): HTTP, orders, fills, settlement latency, queue depth',
          querystring: HoursQuery,
          response: { 200: Envelope },
        },
      },
      async (request) => ok(await consoleSamples(deps, request.query.hours ?? 6)),
    );
  };
}
