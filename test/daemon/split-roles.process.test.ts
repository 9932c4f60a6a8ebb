/**
 * Scale-out on one machine: one process runs the embedded ledger with the workers, the indexer
 * and the matcher, another runs only the HTTP API and reaches the ledger over JSON-RPC (RPC_URL). The API process
 * has no worker, so a transaction it returns was built by the other process through the queue.
 */
import { Keypair } from '@solana/web3.js';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/infra/free-port.js';
import { tempDir } from '../helpers/databases.js';
import { deleteKeys, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis.js';
import { spawnDaemon, startLedgerDaemon, startReadyDaemon, waitForStatus, within, type DaemonProcess } from './daemon-process.js';

const started: DaemonProcess[] = [];
const prefix = uniquePrefix('split');
afterAll(async () => {
  for (const d of started) if (d.child.exitCode === null) d.child.kill('SIGKILL');
  await deleteKeys(prefix);
});

// Three daemons start one after the other, each loading tsx and the whole tree: on a loaded
// 2-core machine a start alone has taken 20 s. The limit is a limit, not a target (~10 s idle).
const TEST_TIMEOUT_MS = 240_000;

describe('split roles', () => {
  it(
    'serves the API from a process without ledger or workers',
    async () => {
      const dataDir = tempDir('pmx-split-');
      const shared = { REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix };

      const api0 = await spawnDaemon(dataDir, { ...shared, ROLES: 'api', RPC_URL: `http://127.0.0.1:${await findFreePort()}` });
      started.push(api0);
      const refused = await within(api0.exited, 60_000, 'an API process started before its ledger');
      expect(refused.code).not.toBe(0);
      expect(api0.output()).toMatch(/without the ledger role: no embedded cluster keys/);

      const { daemon: ledger, port: ledgerPort } = await startLedgerDaemon(dataDir, { ...shared, ROLES: 'ledger,worker,indexer,matcher' });
      started.push(ledger);

      const rpcUrl = `http://127.0.0.1:${ledgerPort}`;
      const api = await startReadyDaemon(dataDir, { ...shared, ROLES: 'api', RPC_URL: rpcUrl }, '/health', 60_000); // new ports on EADDRINUSE
      started.push(api);
      const ready = (await waitForStatus(api, '/ready', 200, 60_000)) as { checks: Record<string, { ok: boolean }> };
      expect(ready.checks.workers?.ok).toBe(true);
      expect(ready.checks.chain?.ok).toBe(true);
      expect(ready.checks.matchers?.ok).toBe(true);

      const config = (await (await fetch(`${api.url}/v2/config`)).json()) as {
        data: { cluster: string; rpcUrl: string; programInitialized: boolean; faucet: boolean };
      };
      expect(config.data).toMatchObject({
        cluster: 'embedded',
        rpcUrl: `http://127.0.0.1:${ledgerPort}`,
        programInitialized: true,
        faucet: false,
      });

      const create = await fetch(`${api.url}/v2/markets/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          wallet: Keypair.generate().publicKey.toBase58(),
          title: 'Split roles',
          description: 'Built by the worker process',
          yesTicker: 'Y',
          noTicker: 'N',
          resolutionTime: 2_000_000_000,
          seedAmount: 0,
          tradeFeeBps: 200,
        }),
      });
      expect(create.status).toBe(200);
      const body = (await create.json()) as { data: { transaction: string; marketId: number } };
      expect(body.data.marketId).toBeGreaterThan(0);
      expect(Buffer.from(body.data.transaction, 'base64').length).toBeGreaterThan(100);

      for (const d of [api, ledger]) d.child.kill('SIGINT');
      expect((await within(api.exited, 30_000, 'api shutdown')).code).toBe(0);
      expect((await within(ledger.exited, 30_000, 'ledger shutdown')).code).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );
});
