// The Money page's solvency sections as HTML: a failing check gets a red mark naming the
// shortfall, comes first in its table and raises the alert above the fold; passing checks a
// green one. Amounts in USDC / SOL, exact (bigint).
import { describe, expect, it } from 'vitest';
import { solvencyAlert, solvencySections, units } from '../../src/api/routes/console/solvency-page.js';
import { moneyPage } from '../../src/api/routes/family-a/money-page.js';
import type { SolvencyReport } from '../../src/services/console/solvency.service.js';

const vault = { address: 'M', vault: 'V', yesSupply: '0', noSupply: '0', problem: null };
const report: SolvencyReport = {
  checkedAt: '2026-11-26T10:00:00.000Z',
  marketsPerFamily: 500,
  failing: { wallets: 1, familyB: 1, orderbook: 0 },
  wallets: [
    { role: 'treasury', address: 'T', purpose: 'pays fees', lamports: '2000000000', minLamports: '100000000', usdcRaw: '5', ok: true },
    { role: 'exchange operator', address: 'O', purpose: 'settles', lamports: '10', minLamports: '1000000000', usdcRaw: null, ok: false },
  ],
  familyB: [
    {
      ...vault,
      marketId: '1',
      mode: 'amm',
      status: 'active',
      vaultBalance: '1100000000',
      collateral: '1098000000',
      unclaimedFees: '2000000',
      owedToHolders: '184507295',
      required: '1100000000',
      shortfall: '0',
      ok: true,
    },
    {
      ...vault,
      marketId: '2',
      mode: 'amm',
      status: 'active',
      vaultBalance: '2000100',
      collateral: '100',
      unclaimedFees: '2000000',
      owedToHolders: '150',
      required: '2000150',
      shortfall: '50',
      ok: false,
    },
  ],
  orderbook: [
    {
      ...vault,
      id: 'c1',
      slug: 'rain',
      status: 'active',
      outcome: null,
      vaultBalance: '10000000',
      yesSupply: '10000000',
      noSupply: '10000000',
      completeSets: '10000000',
      required: '10000000',
      shortfall: '0',
      ok: true,
    },
  ],
};

describe('solvency sections', () => {
  it('marks a failing check red with its shortfall, first in its table, and raises the alert', () => {
    const html = solvencySections(report);
    expect(html.match(/data-check="fail"/g)).toHaveLength(2);
    expect(html).toContain('<span class="bad" data-check="fail">✗ short by 0.000050 USDC</span>');
    expect(html).toContain('<span class="bad" data-check="fail">✗ below 1.000000000 SOL</span>');
    const familyB = html.slice(html.indexOf('Family B vaults'));
    expect(familyB.indexOf('<td>2</td>')).toBeLessThan(familyB.indexOf('<td>1</td>'));
    expect(html).toContain('<td>1100.000000</td>');
    expect(html).toContain('href="/admin/markets/c/c1"');
    expect(solvencyAlert(report)).toContain('1 wallet(s) below their SOL threshold; 1 Family B vault(s) short of their liabilities');
  });

  it('raises no alert and draws green marks when every check passes', () => {
    const healthy = {
      ...report,
      failing: { wallets: 0, familyB: 0, orderbook: 0 },
      wallets: [report.wallets[0]!],
      familyB: [report.familyB[0]!],
    };
    expect(solvencyAlert(healthy)).toBe('');
    expect(solvencySections(healthy)).not.toContain('class="bad"');
    expect(solvencySections(healthy).match(/class="good"/g)).toHaveLength(3);
  });

  it('on the Money page: the checks above Family A money, or a banner when the chain could not be read', () => {
    const empty = { counts: { transfers: [], awaitingFunds: [] }, awaitingFunds: [], openTransfers: [], recentRefunds: [] };
    const page = moneyPage(empty, report);
    expect(page.indexOf('Solvency checks fail')).toBeLessThan(page.indexOf('<h2>Platform wallets</h2>'));
    expect(page.indexOf('<h2>Platform wallets</h2>')).toBeLessThan(page.indexOf('<h2>Waiting for funds</h2>'));
    const down = moneyPage(empty, new Error('connect ECONNREFUSED 127.0.0.1:8899'));
    expect(down).toContain('Solvency checks unavailable: the chain could not be read (connect ECONNREFUSED 127.0.0.1:8899)');
    expect(down).not.toContain('<h2>Platform wallets</h2>');
    expect(down).toContain('<h2>Waiting for funds</h2>');
  });

  it('writes raw units exactly', () => {
    expect(units('1', 6)).toBe('0.000001');
    expect(units('123456789012345678', 9)).toBe('123456789.012345678');
    expect(units(null, 6)).toBe('—');
  });
});
