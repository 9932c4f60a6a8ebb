/**
 * /admin/money: the operators' page of platform money that needs attention (issue 8 items 2 and
 * 3): payouts and refunds waiting for funds (with what is missing and since when), Family A
 * transfers held, credited or left to an operator, and recent refunds; above them the solvency
 * checks of every family (issue 28: wallets, vaults against liabilities, a red mark where one
 * fails). Plain HTML, no scripts, refreshed every 15 s; behind the admin token like the job
 * dashboard (which links here). Registered by the console feature, which has every family's chain.
 */
import type { FastifyInstance } from 'fastify';
import { isAdminRequest } from '../../plugins/admin-auth.js';
import { esc, page, table } from '../../pages/html.js';
import type { FamilyADeps } from '../../../services/family-a/family-a.deps.js';
import { moneyOverview } from '../../../services/family-a/money-admin.service.js';
import type { SolvencyReport } from '../../../services/console/solvency.service.js';
import { solvencyAlert, solvencySections } from '../console/solvency-page.js';

type Overview = Awaited<ReturnType<typeof moneyOverview>>;

/** The solvency checks' banner and sections; when the chain could not be read, a banner saying so. */
function solvencyParts(solvency: SolvencyReport | Error | undefined): { alert: string; sections: string } {
  if (solvency === undefined) return { alert: '', sections: '' };
  if (solvency instanceof Error) {
    const alert = `<p class="alert" role="alert">Solvency checks unavailable: the chain could not be read (${esc(solvency.message)}).</p>`;
    return { alert, sections: '' };
  }
  return { alert: solvencyAlert(solvency), sections: solvencySections(solvency) };
}

export function moneyPage(o: Overview, solvency?: SolvencyReport | Error): string {
  const waiting = o.awaitingFunds.map((r) => [
    r.purpose,
    r.awaitingFundsSince,
    r.shortfall ? `${r.shortfall.missingRaw} raw ${r.shortfall.asset}` : '',
    r.lastError,
    r.id,
  ]);
  const open = o.openTransfers.map((t) => [
    t.state,
    `${t.amount ?? t.amountRaw} ${t.asset}`,
    t.slug,
    t.sender,
    t.reason,
    t.refundAfter,
    t.txHash,
  ]);
  const refunds = o.recentRefunds.map((t) => [
    t.refund?.status,
    `${t.refund?.amount ?? ''} ${t.asset}`,
    t.sender,
    t.reason,
    t.refund?.signature,
    t.txHash,
  ]);
  const counts = o.counts.transfers.map((c) => `${esc(c.state)}: ${c.count}`).join(' · ') || 'none yet';
  const checks = solvencyParts(solvency);
  const alert =
    o.awaitingFunds.length > 0
      ? `<p class="alert" role="alert">${o.awaitingFunds.length} platform transaction(s) wait for funds: fund the wallets named below; they are paid automatically.</p>`
      : '';
  return page(
    'Platform money',
    `${checks.alert}${alert}
${checks.sections}
<h2>Waiting for funds</h2>${table(['purpose', 'since', 'missing', 'reason', 'outbound id'], waiting, 'No payout or refund waits for funds.')}
<h2>Transfers needing attention (held, credited, manual)</h2>${table(['state', 'amount', 'market', 'sender', 'reason', 'refund after', 'transaction'], open, 'Nothing held, credited or awaiting an operator.')}
<h2>Recent refunds</h2>${table(['status', 'amount', 'to', 'reason', 'refund signature', 'transaction'], refunds, 'No refunds yet.')}
<p>Family A transfers by state: ${counts}</p>`,
  );
}

export function moneyPageRoute(deps: Pick<FamilyADeps, 'db' | 'usdcMint'>, adminToken: string, solvency?: () => Promise<SolvencyReport>) {
  return async function (app: FastifyInstance): Promise<void> {
    app.get('/admin/money', { schema: { hide: true } }, async (request, reply) => {
      if (!isAdminRequest(request)) {
        if ((request.headers.accept ?? '').includes('text/html')) return reply.redirect('/admin/login?next=%2Fadmin%2Fmoney', 302);
        return reply.status(401).send({ success: false, error: { code: 'UNAUTHORIZED', message: 'Admin token required' } });
      }
      // A chain that cannot be read leaves the rest of the page (the database's part) readable.
      const [overview, report] = await Promise.all([
        moneyOverview(deps),
        solvency?.().catch((error: unknown) => {
          request.log.warn({ err: error }, 'solvency checks unavailable');
          return error instanceof Error ? error : new Error(String(error));
        }),
      ]);
      return reply.type('text/html').send(moneyPage(overview, report));
    });
  };
}
