/**
 * /admin/orderbook: the operators' page of the orderbook — its markets, and the settlement
 * keeper: fills per status, the age of the oldest fill not settled yet, failed fills with their
 * reasons and a button to re-drive each. Behind the admin token like the job dashboard (which
 * links here); the re-drive form posts with the session cookie (SameSite=Strict).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isAdminRequest } from '../../plugins/admin-auth.js';
import { addFormBodyParser } from '../../plugins/form-body.js';
import { esc, page, table } from '../../pages/html.js';
import type { FamilyCContext } from '../../../services/family-c/context.js';
import { listAllMarketsForOperators } from '../../../services/family-c/market-catalog.service.js';
import { keeperStatus, redriveFailedFill } from '../../../services/family-c/settlement/keeper-admin.service.js';
import { isDomainError } from '../../../domain/errors.js';

type Status = Awaited<ReturnType<typeof keeperStatus>>;
type Markets = Awaited<ReturnType<typeof listAllMarketsForOperators>>;

export function orderbookPage(k: Status, markets: Markets, notice?: string): string {
  const counts =
    Object.entries(k.fillsByStatus)
      .map(([s, n]) => `${esc(s)}: ${n}`)
      .join(' · ') || 'no fills yet';
  const age = k.oldestUnsettledAgeSeconds;
  const alert =
    age !== null && age > 60
      ? `<p class="alert" role="alert">The oldest unsettled fill is ${age} s old: check the keeper (platform queue) and the cluster.</p>`
      : '';
  const failed = k.failedFills.map((f) => [
    f.status,
    f.failureReason,
    f.fillType,
    `${f.quantity} @ ${f.priceBps}`,
    f.marketId,
    f.matchedAt,
    { html: `<form method="post" action="/admin/orderbook/fills/${esc(f.id)}/retry"><button>Re-drive</button></form>` },
  ]);
  const rows = markets.map((m) => [m.slug, m.status, m.outcome ?? '', m.id, m.created_at]);
  return page(
    'Orderbook',
    `${notice ? `<p>${esc(notice)}</p>` : ''}${alert}
<h2>Settlement keeper</h2><p>Fills by status: ${counts}. Oldest fill not settled: ${age === null ? 'none' : `${age} s`}.</p>
<h3>Failed fills</h3>${table(['status', 'reason', 'type', 'quantity @ price', 'market', 'matched', ''], failed, 'No failed fills.')}
<h2>Markets</h2>${table(['slug', 'status', 'outcome', 'id', 'created'], rows, 'No orderbook markets yet.')}`,
  );
}

export function orderbookPageRoutes(ctx: FamilyCContext, adminToken: string, redriven: (marketId: string) => Promise<void>) {
  const guard = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (isAdminRequest(request)) return true;
    if ((request.headers.accept ?? '').includes('text/html')) void reply.redirect('/admin/login?next=%2Fadmin%2Forderbook', 302);
    else void reply.status(401).send({ success: false, error: { code: 'UNAUTHORIZED', message: 'Admin token required' } });
    return false;
  };
  return async function (app: FastifyInstance): Promise<void> {
    // The re-drive button is a plain HTML form: without this a browser's post is refused with 415.
    addFormBodyParser(app);
    app.get('/admin/orderbook', { schema: { hide: true } }, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      return reply.type('text/html').send(orderbookPage(await keeperStatus(ctx), await listAllMarketsForOperators(ctx)));
    });
    app.post('/admin/orderbook/fills/:id/retry', { config: { role: 'operator' }, schema: { hide: true } }, async (request, reply) => {
      if (!guard(request, reply)) return reply;
      const id = String((request.params as { id?: unknown }).id ?? '');
      let notice: string;
      try {
        const { marketId } = await redriveFailedFill(ctx, id);
        await redriven(marketId);
        notice = `Fill ${id} is back in the settlement queue.`;
      } catch (error) {
        if (!isDomainError(error)) throw error;
        notice = error.message;
      }
      return reply.type('text/html').send(orderbookPage(await keeperStatus(ctx), await listAllMarketsForOperators(ctx), notice));
    });
  };
}
