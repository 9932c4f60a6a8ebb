// End to end, Family C: the real daemon in one child process, a trader's bot in another, as it
// would run against a real deployment — twice: the README's example (`npm run example:family-c`,
// on @pmx/client) and the independent client written from the docs (web3.js, node's crypto,
// fetch: fixtures/independent-family-c.ts), so that the docs are proven, not only the client.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReadyDaemon, type DaemonProcess } from '../daemon/daemon-process.js';
import { tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

const CLIENTS = {
  'the example on @pmx/client': fileURLToPath(new URL('../../scripts/example-family-c.ts', import.meta.url)),
  'the independent client (web3.js, node crypto, fetch)': fileURLToPath(new URL('./fixtures/independent-family-c.ts', import.meta.url)),
};
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const ADMIN = 'family-c-e2e-admin-token-0123456789';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const USDC = 1_000_000;

describe('Family C end to end (real daemon process, separate client process)', () => {
  let daemon: DaemonProcess;
  const prefix = uniquePrefix('family-c-e2e');
  beforeAll(async () => {
    // A cold start takes 10–15 s on a loaded machine.
    daemon = await startReadyDaemon(
      tempDir('pmx-family-c-e2e-'),
      { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, ADMIN_TOKEN: ADMIN, LOG_LEVEL: 'warn' },
      '/v2/config',
      60_000,
    );
  }, 200_000);
  afterAll(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
    await deleteKeys(prefix);
  });

  // Sequential on one daemon: each run lists its own market and funds its own keypairs.
  it.each(Object.entries(CLIENTS))(
    '%s: deposits, quotes, fills of all three types, cancels, book, trades and a refused withdrawal',
    async (_name, fixture) => {
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(
          tsx,
          // As `npm run example:family-c` runs it: @pmx/client from its sources, not a dist/ that may be stale.
          ['--conditions=pmx-source', fixture],
          { env: { ...process.env, API_URL: daemon.url, ADMIN_TOKEN: ADMIN }, timeout: 90_000 },
          (err, out, errOut) =>
            err ? reject(new Error(`${err.message}\n${errOut}\n--- daemon ---\n${daemon.output().slice(-3000)}`)) : resolve(out),
        );
      });
      const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as Json;
      expect(r.market).toMatchObject({ status: 'active', yesTicker: 'DONE', noTicker: 'STUCK' });
      expect(r.setup).toMatchObject({ ready: true, smartWalletBalance: String(250 * USDC) });
      // 250 deposited − 40 split − 4 (bid YES 10 @ 4000) − 3 (bid NO 10 @ 3000).
      expect(r.afterQuotes).toMatchObject({ withdrawable: String(203 * USDC), totalCommitted: String(7 * USDC) });
      expect(r.quotes.askNo).toMatchObject({ status: 'open', committedAmount: String(10 * USDC) });

      const kinds = (x: Json) => (x.fills as Json[]).map((f) => `${f.fillType}:${f.quantity}@${f.priceBps}`);
      expect(kinds(r.fills.direct)).toEqual([`direct:${4 * USDC}@6000`]);
      expect(r.fills.direct.fills[0]).toMatchObject({
        usdcAmount: String(2.4 * USDC),
        takerFee: '6000',
        makerRebate: '1200',
        protocolFee: '4800',
      });
      expect(kinds(r.fills.comp)).toEqual([`direct:${6 * USDC}@6000`, `complementary:${2 * USDC}@7000`]);
      expect(kinds(r.fills.sellComp)).toEqual([`sell_complementary:${2 * USDC}@4500`]);
      expect(r.fills.fok).toMatchObject({ status: 'cancelled', fills: [] });

      expect(r.cancelOne).toMatchObject({ success: true, status: 'cancelled', cancelled: true });
      expect(r.cancelAll.cancelled.length).toBeGreaterThanOrEqual(2);
      expect(r.trades).toHaveLength(4);
      expect(r.trades.every((t: Json) => t.status === 'settled' && typeof t.settleTx === 'string')).toBe(true);
      expect(r.makerOrders.length).toBe(5);
      // Settled: nothing held any more; withdrawing past the smart wallet is refused.
      expect(r.takerBalances.totalCommitted).toBe('0');
      expect(r.tooMuch.status).toBe(400);
      expect(r.tooMuch.json.error).toBe('INSUFFICIENT_WITHDRAWABLE');
      expect(r.tooMuch.json.message).toBe(
        `Requested withdrawal of ${BigInt(r.takerBalances.withdrawable) + 1n} exceeds withdrawable balance of ${r.takerBalances.withdrawable}. Cancel open orders to free committed collateral.`,
      );
      // The taker holds 17 YES (4 + 6 direct, 2 complementary, and 5 from its split: positions count
      // splits, docs/family-c.md) and 5 − 2 = 3 NO from its split.
      expect(r.positions.find((p: Json) => p.outcome === 'yes')).toMatchObject({ netQuantity: String(17 * USDC) });
      expect(r.summary.activePositions).toBeGreaterThan(0);
      // Redeemed: the 12 bought and the 5 YES of its split.
      expect(r.redeemed.taker).toBe(String(17 * USDC));
      // Every raw unit the faucet gave is in a wallet, a smart wallet, the vault or the fee wallet.
      expect(r.accounting.vault).toBe('0');
      expect(BigInt(r.accounting.traders) + BigInt(r.accounting.vault) + BigInt(r.accounting.fees)).toBe(BigInt(r.accounting.minted));
    },
    120_000,
  );
});
