// End to end, Family B: the real daemon (`node --import tsx src/main.ts`) in one child process,
// a client in another, talking HTTP to the API and JSON-RPC + PubSub to the embedded cluster, as
// a user would against mainnet — twice: the README's example (`npm run example:family-b`, on
// @pmx/client) and the independent client written from the docs (web3.js/spl-token and fetch:
// fixtures/independent-family-b.ts), so that the docs are proven, not only the client.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReadyDaemon, type DaemonProcess } from '../daemon/daemon-process.js';
import { tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';

// The README's example (`npm run example:family-b`) is one of the clients: the example cannot rot.
const CLIENTS = {
  'the example on @pmx/client': fileURLToPath(new URL('../../scripts/example-family-b.ts', import.meta.url)),
  'the independent client (web3.js, spl-token, fetch)': fileURLToPath(new URL('./fixtures/independent-family-b.ts', import.meta.url)),
};
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('Family B end to end (real daemon process, separate client process)', () => {
  let daemon: DaemonProcess;
  const prefix = uniquePrefix('family-b-e2e');
  beforeAll(async () => {
    // A fresh start with new ports when a parallel test took one first (EADDRINUSE).
    daemon = await startReadyDaemon(
      tempDir('pmx-family-b-e2e-'),
      { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, LOG_PRETTY: 'false', LOG_LEVEL: 'warn' },
      '/v2/config',
      60_000,
    );
  }, 120_000); // limits for a loaded machine (a start took over 40 s there), not targets
  afterAll(async () => {
    if (daemon && daemon.child.exitCode === null) {
      daemon.child.kill('SIGTERM');
      await daemon.exited;
    }
    await deleteKeys(prefix);
  });

  // Sequential on one daemon: each run creates its own markets (ids counted from the one before).
  it.each(Object.entries(CLIENTS))(
    '%s: create (AMM + Pool), init-mints, confirm, trade at the quote, resolve, redeem, claim fees; every USDC unit accounted for',
    async (_name, fixture) => {
      const stdout = await new Promise<string>((resolve, reject) => {
        // As `npm run example:family-b` runs it: @pmx/client from its sources, not a dist/ that may be stale.
        execFile(
          tsx,
          ['--conditions=pmx-source', fixture],
          { env: { ...process.env, API_URL: daemon.url }, timeout: 60_000 },
          (err, out, errOut) =>
            err ? reject(new Error(`${err.message}\n${errOut}\n--- daemon ---\n${daemon.output().slice(-3000)}`)) : resolve(out),
        );
      });
      const r = JSON.parse(stdout.trim().split('\n').at(-1)!) as Json;

      expect(r.markets.amm).toMatchObject({ type: 'amm', yesTicker: 'UP' });
      expect(r.markets.pool).toMatchObject({ type: 'pool', id: r.markets.amm.id + 1 });
      expect(r.markets.amm.slug).toMatch(/^[a-z0-9-]+$/);
      expect(r.counter).toBe(r.markets.pool.id);

      // Every trade executed exactly at its quote, and positions showed it within 2 s.
      expect(r.trades).toHaveLength(5);
      expect(r.trades.map((t: Json) => `${t.market}:${t.action}:${t.ticker}→${t.side}`)).toEqual([
        'amm:buy:UP→YES',
        'amm:buy:DOWN→NO',
        'amm:sell:DOWN→NO',
        'pool:buy:HOT→YES',
        'pool:buy:COLD→NO',
      ]);
      for (const t of r.trades) {
        expect(t.executedOut, JSON.stringify(t)).toBe(t.quoteOut);
        expect(t.responseQuoteOut).toBe(t.quoteOut);
        expect(t.executedIn).toBe(t.amount);
        expect(t.lagMs).toBeLessThanOrEqual(2_000);
      }
      // Pool: 2 tokens per net USDC (fees 2% + 1.5%).
      expect(r.trades[3].executedOut).toBe(2 * (5_000_000 - 100_000 - 75_000));

      expect(r.tooEarly).toMatchObject({ status: 400, error: expect.stringMatching(/^ResolutionTooEarly/) });
      expect(r.resolvedAgain).toMatchObject({ success: true, alreadyResolved: true });

      // AMM winner: 1 USDC per token; Pool winner (sole holder): the whole pot.
      expect(r.aliceRedeem.payouts).toEqual([{ marketId: r.markets.amm.id, side: 'YES', usdc: r.aliceTokens.ammYes }]);
      expect(r.aliceRedeem.skipped).toEqual([{ marketId: r.markets.pool.id, reason: 'YES_is_losing_side' }]);
      expect(r.bobRedeem.payouts).toEqual([{ marketId: r.markets.pool.id, side: 'NO', usdc: r.poolCollateral }]);
      expect(r.bobRedeem.skipped).toEqual([{ marketId: r.markets.amm.id, reason: 'NO_is_losing_side' }]);
      expect(r.bobRedeem.message).toBe('1 redemption transaction(s) to sign. 1 skipped.');
      expect(r.aliceAgain).toMatchObject({ success: true, alreadyRedeemed: true });

      // Fees: creator half of 2% on every trade (the sell's fee is on its gross).
      expect(r.fees.claimOne).toBe(r.fees.claimOneQuoted);
      expect(r.fees.claimOne).toBeGreaterThan(150_000);
      expect(r.fees.claimAllCount).toBe(1);
      expect(r.fees.claimAll).toBe((5_000_000 * 0.02 + 8_000_000 * 0.02) / 2);
      expect(r.fees.noFees).toMatchObject({ success: true, noFees: true });
      expect(r.fees.claimAllAgain.transactions).toEqual([]);

      // Conservation: what the faucet minted is exactly what the wallets, vaults and fee wallet hold.
      expect(r.accounting.supplyDelta).toBe(r.accounting.minted);
      expect(r.accounting.held).toBe(r.accounting.minted);
    },
    90_000,
  );
});
