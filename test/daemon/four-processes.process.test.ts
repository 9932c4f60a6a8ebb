/**
 * The several-machines layout of docs/operations.md, on one machine: four processes, each with its
 * own DATA_DIR, on one PostgreSQL and one Redis — ledger + api (the only one with the dev faucet),
 * api, worker + indexer, matcher. The three without the ledger reach it by RPC_URL with a copy of
 * its keys (KEYS_DIR). Both example scripts run through them: the faucet through the first API,
 * everything else through the second. Before the matcher starts, the second API is not ready and
 * says why; once it runs, it is.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { POSTGRES_URL, tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { spawnDaemon, startLedgerDaemon, startReadyDaemon, waitForStatus, within, type DaemonProcess } from './daemon-process.js';

const ADMIN = 'four-processes-admin-token-0123456789';
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));
const script = (name: string) => fileURLToPath(new URL(`../../scripts/${name}`, import.meta.url));
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
type Ready = { ready: boolean; checks: Record<string, { ok: boolean; role?: string; detail?: string }> };

const started: DaemonProcess[] = [];
const prefix = uniquePrefix('four');
const schema = `t_${randomBytes(6).toString('hex')}`;
afterAll(async () => {
  for (const d of started) if (d.child.exitCode === null) d.child.kill('SIGKILL');
  await Promise.all(started.map((d) => d.exited));
  await deleteKeys(prefix);
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`drop schema if exists ${schema} cascade`);
  await admin.end();
});

function runScript(name: string, env: Record<string, string>, logs: () => string): Promise<Json> {
  return new Promise((resolve, reject) => {
    // As `npm run example:*` runs them: @pmx/client from its sources (its dist/ may be missing or stale).
    execFile(tsx, ['--conditions=pmx-source', script(name)], { env: { ...process.env, ...env }, timeout: 150_000 }, (err, out, errOut) =>
      err
        ? reject(new Error(`${name}: ${err.message}\n${errOut}\n--- daemons ---\n${logs()}`))
        : resolve(JSON.parse(out.trim().split('\n').at(-1)!) as Json),
    );
  });
}

async function readyOf(api: DaemonProcess): Promise<{ status: number; body: Ready }> {
  const res = await fetch(`${api.url}/ready`);
  return { status: res.status, body: (await res.json()) as Ready };
}

// Four daemons start (each loads tsx and the whole tree) and two scripts run end to end on a
// loaded 2-core machine: a limit, not a target.
const TEST_TIMEOUT_MS = 540_000;

describe('four processes, four data directories, PostgreSQL and one Redis', () => {
  it(
    'serves both example scripts and reports a missing matcher in /ready',
    async () => {
      const admin = new pg.Client({ connectionString: POSTGRES_URL });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      const db = new URL(POSTGRES_URL);
      db.searchParams.set('options', `-c search_path=${schema}`);
      const shared = {
        REDIS_URL: TEST_REDIS_URL,
        QUEUE_PREFIX: prefix,
        DATABASE_URL: db.toString(),
        ADMIN_TOKEN: ADMIN,
        CLOB_MATCHER_LEASE_MS: '2000',
        LOG_LEVEL: 'warn',
        RATE_LIMIT_WRITE_PER_MIN: '1000000',
        RATE_LIMIT_READ_PER_MIN: '1000000',
      };
      const logs = () => started.map((d) => `[${d.dataDir}]\n${d.output().slice(-2500)}`).join('\n');

      // 1. The ledger with the API that serves the faucet; its keys are what the others copy.
      const ledgerDir = tempDir('pmx-four-ledger-');
      const { daemon: first, port: ledgerPort } = await startLedgerDaemon(ledgerDir, { ...shared, ROLES: 'ledger,api', LOG_LEVEL: 'info' });
      started.push(first);
      await waitForStatus(first, '/v2/config', 200, 60_000);
      const keysDir = path.join(tempDir('pmx-four-keys-'), 'keys');
      fs.cpSync(path.join(ledgerDir, 'keys'), keysDir, { recursive: true }); // "copy the keys to each machine"
      const remote = {
        ...shared,
        RPC_URL: `http://127.0.0.1:${ledgerPort}`,
        WS_URL: `ws://127.0.0.1:${ledgerPort + 1}`,
        KEYS_DIR: keysDir,
      };

      // 2. The second API and the worker + indexer, each with a DATA_DIR of its own.
      const [api, worker] = await Promise.all([
        startReadyDaemon(tempDir('pmx-four-api-'), { ...remote, ROLES: 'api' }, '/health', 90_000),
        spawnDaemon(tempDir('pmx-four-worker-'), { ...remote, ROLES: 'worker,indexer' }),
      ]);
      started.push(api, worker);
      // Wait for the event (the worker's heartbeat seen), then look at what is still missing.
      const before = await (async () => {
        const deadline = Date.now() + 90_000;
        for (;;) {
          const probe = await readyOf(api);
          if (probe.body.checks.workers?.ok || worker.child.exitCode !== null || Date.now() > deadline) return probe;
          await new Promise((r) => setTimeout(r, 250));
        }
      })();
      expect(before.body.checks.workers?.ok, logs()).toBe(true);
      expect(before.status, logs()).toBe(503);
      expect(before.body.checks.matchers).toMatchObject({
        ok: false,
        role: 'api',
        detail: 'no matcher node has ever run: start a process with ROLES including matcher',
      });
      expect(before.body.checks.chain).toMatchObject({ ok: true, role: 'process' });

      // 3. The matcher; then the second API is ready.
      const matcher = await spawnDaemon(tempDir('pmx-four-matcher-'), { ...remote, ROLES: 'matcher' });
      started.push(matcher);
      const ready = (await waitForStatus(api, '/ready', 200, 90_000)) as Ready;
      expect(ready.checks.matchers).toMatchObject({ ok: true, detail: 'no active orderbook market' });
      expect(first.output()).toMatch(/"msg":"daemon started: ledger, api"/);
      expect(first.output()).toContain(`"console":["${first.url}/admin","${first.url}/admin/markets"`);

      const config = (await (await fetch(`${api.url}/v2/config`)).json()) as Json;
      expect(config.data).toMatchObject({ faucet: false, rpcUrl: `http://127.0.0.1:${ledgerPort}` });
      const faucetConfig = (await (await fetch(`${first.url}/v2/config`)).json()) as Json;
      expect(faucetConfig.data.faucet).toBe(true);

      // 4. Both example scripts: the faucet through the first API, everything else through the second.
      const urls = { API_URL: api.url, FAUCET_URL: first.url, ADMIN_TOKEN: ADMIN };
      const b = await runScript('example-family-b.ts', urls, logs);
      expect(b.trades, JSON.stringify(b)).toHaveLength(5);
      expect(b.resolvedAgain).toMatchObject({ success: true, alreadyResolved: true });
      expect(b.bobRedeem.payouts).toEqual([{ marketId: b.markets.pool.id, side: 'NO', usdc: b.poolCollateral }]);

      const c = await runScript('example-family-c.ts', urls, logs);
      expect(c.market, JSON.stringify(c)).toMatchObject({ status: 'active', yesTicker: 'DONE', noTicker: 'STUCK' });
      expect(c.fills.direct.fills).toHaveLength(1);
      const after = await readyOf(api);
      expect(after.status, JSON.stringify(after.body)).toBe(200);
      // The script resolved its market at the end: no active market is left to cover.
      expect(after.body.checks.matchers).toMatchObject({ ok: true, detail: 'no active orderbook market' });

      for (const d of [api, worker, matcher, first]) d.child.kill('SIGTERM');
      const named = { api, worker, matcher, first };
      for (const [name, d] of Object.entries(named))
        expect((await within(d.exited, 30_000, `shutdown of the ${name} process:\n${d.output().slice(-3000)}`)).code, logs()).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
