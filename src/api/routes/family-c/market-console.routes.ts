/**
 * An orderbook market's console page (/admin/markets/c/{id}) and its controls: pause, resume,
 * resolve (a confirmation step names the market and the outcome before anything happens), cancel
 * every resting order, and re-drive a failed fill (the orderbook page's form). Plain HTML forms
 * posting with the session cookie (SameSite=Strict); each control answers with the page and what
 * it did, and the audit log records it. JSON twins: GET /v2/admin/clob/markets/{id}/console and
 * POST /v2/admin/clob/markets/{id}/cancel-all.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ClobMarketStatus } from '../../../domain/orderbook/index.js';
import { isDomainError } from '../../../domain/errors.js';
import type { ClobBookReads } from '../../../services/family-c/book-reads.js';
import type { FamilyCContext } from '../../../services/family-c/context.js';
import { changeClobMarketStatus } from '../../../services/family-c/market-admin.service.js';
import { cancelAllResting, marketConsole } from '../../../services/family-c/market-console.service.js';
import type { MatcherPort } from '../../../services/family-c/matcher/matcher.port.js';
import { adminPage } from '../../pages/admin-guard.js';
import { requireAdmin } from '../../plugins/admin-auth.js';
import { addFormBodyParser } from '../../plugins/form-body.js';
import { confirmResolvePage, marketConsolePage } from './market-console-page.js';

const Params = Type.Object({ id: Type.String({ minLength: 1, maxLength: 80 }) });
const ResolveForm = Type.Object({
  outcome: Type.Optional(Type.String({ maxLength: 10 })),
  confirm: Type.Optional(Type.String({ maxLength: 10 })),
});

export interface MarketConsoleDeps {
  tops: ClobBookReads;
  matcher: MatcherPort;
  adminToken: string;
  onStatusChanged(marketId: string, status: ClobMarketStatus): Promise<void>;
}

export function marketConsoleRoutes(ctx: FamilyCContext, deps: MarketConsoleDeps) {
  const guard = adminPage();
  const render = async (reply: FastifyReply, id: string, notice?: string) =>
    reply.type('text/html').send(marketConsolePage(await marketConsole(ctx, deps.tops, id), notice));
  /** Runs a control and shows the page with what it did, or why it was refused. */
  const control = async (reply: FastifyReply, id: string, run: () => Promise<string>) => {
    let notice: string;
    try {
      notice = await run();
    } catch (error) {
      if (!isDomainError(error)) throw error;
      notice = `Refused: ${error.message}`;
      reply.status(error.kind === 'not_found' ? 404 : 409);
    }
    return render(reply, id, notice);
  };
  const setStatus = async (id: string, action: 'pause' | 'resume' | 'resolve', outcome?: 'yes' | 'no') => {
    const { market, change } = await changeClobMarketStatus(ctx, id, action, outcome);
    if (change) await deps.onStatusChanged(market.id, change.status);
    return `${action === 'resolve' ? `Resolved ${outcome?.toUpperCase()}` : action === 'pause' ? 'Paused' : 'Resumed'}: ${market.id}`;
  };

  return async function (root: FastifyInstance): Promise<void> {
    const app = root.withTypeProvider<TypeBoxTypeProvider>();
    addFormBodyParser(app);
    const hide = { hide: true, params: Params } as const;
    app.get('/admin/markets/c/:id', { schema: hide }, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      return render(reply, request.params.id);
    });
    for (const action of ['pause', 'resume'] as const) {
      app.post(`/admin/markets/c/:id/${action}`, { config: { role: 'operator' }, schema: hide }, async (request, reply) => {
        if (!guard(request, reply)) return reply;
        return control(reply, request.params.id, () => setStatus(request.params.id, action));
      });
    }
    // The confirmation is a page (a GET: nothing happens until its form posts with confirm=yes).
    app.get('/admin/markets/c/:id/resolve', { schema: { ...hide, querystring: ResolveForm } }, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      const { outcome } = request.query;
      if (outcome !== 'yes' && outcome !== 'no') return render(reply.status(400), request.params.id, 'Choose YES or NO to resolve');
      return reply.type('text/html').send(confirmResolvePage((await marketConsole(ctx, deps.tops, request.params.id)).market, outcome));
    });
    app.post(
      '/admin/markets/c/:id/resolve',
      { config: { role: 'admin' }, schema: { ...hide, body: ResolveForm } },
      async (request, reply) => {
        if (!guard(request, reply)) return reply;
        const { outcome, confirm } = request.body;
        if ((outcome !== 'yes' && outcome !== 'no') || confirm !== 'yes')
          return render(reply.status(400), request.params.id, 'Resolving needs an outcome (yes or no) and its confirmation');
        return control(reply, request.params.id, () => setStatus(request.params.id, 'resolve', outcome));
      },
    );
    app.post('/admin/markets/c/:id/cancel-all', { config: { role: 'operator' }, schema: hide }, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      return control(reply, request.params.id, async () => {
        const { cancelled } = await cancelAllResting(ctx, deps.matcher, request.params.id);
        return `Cancelled ${cancelled.length} resting order(s)`;
      });
    });

    const admin = { onRequest: requireAdmin() };
    // Family C's success answers carry no envelope (docs/family-c.md); errors take its error envelope.
    const View = Type.Object({}, { additionalProperties: true });
    app.get(
      '/v2/admin/clob/markets/:id/console',
      {
        ...admin,
        schema: {
          tags: ['admin'],
          summary: "An orderbook market's console view: book, trades, settlement pipeline, stuck fills",
          params: Params,
          response: { 200: View },
        },
      },
      async (request) => marketConsole(ctx, deps.tops, request.params.id),
    );
    app.post(
      '/v2/admin/clob/markets/:id/cancel-all',
      {
        config: { role: 'operator' },
        ...admin,
        schema: {
          tags: ['admin'],
          summary: 'Cancel every resting order of an orderbook market (reason `operator`)',
          params: Params,
          response: { 200: View },
        },
      },
      async (request) => cancelAllResting(ctx, deps.matcher, request.params.id),
    );
  };
}
