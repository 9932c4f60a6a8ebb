/**
 * The solvency sections of the Money page (/admin/money): the platform's wallets, then each
 * Family B vault and each orderbook vault against what it owes, failing rows first with a red
 * mark (the rules: docs/operations.md, "Solvency checks"). Plain HTML, like every console page.
 */
import { esc, table } from '../../pages/html.js';
import type { SolvencyReport } from '../../../services/console/solvency.service.js';

/** Raw units → a decimal string with `decimals` places (exact: bigint, no float). */
export function units(raw: string | null, decimals: number): string {
  if (raw === null) return '—';
  const value = BigInt(raw);
  const scale = 10n ** BigInt(decimals);
  const sign = value < 0n ? '-' : '';
  const abs = value < 0n ? -value : value;
  return `${sign}${abs / scale}.${String(abs % scale).padStart(decimals, '0')}`;
}

const usdc = (raw: string | null) => units(raw, 6);
const sol = (raw: string | null) => units(raw, 9);

/** The mark of one check: a red ✗ with what fails, or a green ✓. */
function mark(ok: boolean, why: string): { html: string } {
  return ok ? { html: '<span class="good">✓</span>' } : { html: `<span class="bad" data-check="fail">✗ ${esc(why)}</span>` };
}

const failingFirst = <T extends { ok: boolean }>(rows: T[]) => [...rows.filter((r) => !r.ok), ...rows.filter((r) => r.ok)];

export function solvencyAlert(report: SolvencyReport): string {
  const { wallets, familyB, orderbook } = report.failing;
  if (wallets + familyB + orderbook === 0) return '';
  const parts = [
    wallets ? `${wallets} wallet(s) below their SOL threshold` : '',
    familyB ? `${familyB} Family B vault(s) short of their liabilities` : '',
    orderbook ? `${orderbook} orderbook vault(s) short of their outcome supply` : '',
  ].filter(Boolean);
  return `<p class="alert" role="alert">Solvency checks fail: ${parts.join('; ')} (marked ✗ below).</p>`;
}

export function solvencySections(report: SolvencyReport): string {
  const wallets = report.wallets.map((w) => [
    mark(w.ok, `below ${sol(w.minLamports)} SOL`),
    w.role,
    w.address,
    sol(w.lamports),
    w.minLamports === null ? 'none (receives only)' : sol(w.minLamports),
    usdc(w.usdcRaw),
    w.purpose,
  ]);
  const shortBy = (r: { shortfall: string; problem: string | null }) =>
    [r.problem, r.shortfall !== '0' ? `short by ${usdc(r.shortfall)} USDC` : ''].filter(Boolean).join('; ');
  const familyB = failingFirst(report.familyB).map((m) => [
    mark(m.ok, shortBy(m)),
    m.marketId,
    `${m.mode ?? '—'} / ${m.status ?? '—'}`,
    usdc(m.vaultBalance),
    usdc(m.required),
    usdc(m.owedToHolders),
    usdc(m.unclaimedFees),
    usdc(m.collateral),
    `${usdc(m.yesSupply)} / ${usdc(m.noSupply)}`,
    m.vault,
  ]);
  const orderbook = failingFirst(report.orderbook).map((m) => [
    m.problem === 'not on chain yet' ? 'not on chain yet' : mark(m.ok, shortBy(m)),
    { html: `<a href="/admin/markets/c/${esc(m.id)}">${esc(m.slug)}</a>` },
    `${m.status ?? '—'}${m.outcome ? ` (${m.outcome})` : ''}`,
    usdc(m.vaultBalance),
    usdc(m.required),
    `${usdc(m.yesSupply)} / ${usdc(m.noSupply)}`,
    usdc(m.completeSets),
    m.vault,
  ]);
  const cap = `the ${report.marketsPerFamily} newest markets of each family, read from the chain at ${esc(report.checkedAt)} (kept 5 s)`;
  return `<h2>Platform wallets</h2>${table(['check', 'wallet', 'address', 'SOL', 'red below (SOL)', 'USDC', 'role'], wallets, 'No wallets.')}
<h2>Family B vaults against their liabilities</h2><p class="none">Checked: ${cap}. USDC; outcome tokens in whole tokens (1 raw token redeems at most 1 raw USDC).</p>
${table(['check', 'market', 'mode / status', 'vault', 'required', 'owed to holders', 'unclaimed fees', 'collateral', 'YES / NO supply', 'vault address'], familyB, 'No Family B market.')}
<h2>Orderbook vaults against their outcome supply</h2>
${table(['check', 'market', 'status', 'vault', 'required', 'YES / NO supply', 'complete sets', 'vault address'], orderbook, 'No orderbook market.')}`;
}
