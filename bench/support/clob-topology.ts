/**
 * The placement benches' deployment on one machine: the API and the matcher in one process, the
 * embedded ledger, the workers (the settlement keeper among them) and the indexer in another, on
 * one Redis and one database. The market and the funded traders are set up first by one
 * all-roles process (the dev faucet needs the ledger in-process), which then stops.
 * `BENCH_PROFILE_DIR=<dir>` starts the API + matcher process with `--cpu-prof` into that
 * directory (written when it stops), to see where each placed order's CPU goes.
 * `oneProcess` runs the daemon as `npm start` does instead: every role in one process (no backend).
 */
import type { Keypair } from '@solana/web3.js';
import { spawnDaemon, waitForLedgerRpc, waitForStatus, type DaemonProcess } from '../../test/daemon/daemon-process.js';
import { findFreePort } from '../../src/infra/free-port.js';
import { tempDir } from '../../test/helpers/databases.js';
import { ADMIN, apiOf, setUp, waitForYes } from './clob-world.js';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface PlacementTopology {
  /** API + matcher. */
  daemon: DaemonProcess;
  /** Ledger + workers + indexer; null when every role runs in `daemon` (`oneProcess`). */
  backend: DaemonProcess | null;
  market: Json;
  buyer: Keypair;
  seller: Keypair;
  stop(): Promise<void>;
}

function profileArgs(): string[] {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : [];
}

export async function startPlacementTopology(
  databaseEnv: Record<string, string>,
  options: { prefix: string; daemonArgs?: string[]; oneProcess?: boolean },
): Promise<PlacementTopology> {
  const dataDir = tempDir(`pmx-${options.prefix}-`);
  const shared = {
    ADMIN_TOKEN: ADMIN,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    RATE_LIMIT_READ_PER_MIN: '1000000',
    REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    QUEUE_PREFIX: `${options.prefix}-${process.pid}`,
    LEDGER_RPC_PORT: String(await findFreePort()),
    ...databaseEnv,
  };
  const setup = await spawnDaemon(dataDir, shared);
  let world: Awaited<ReturnType<typeof setUp>>;
  try {
    await waitForStatus(setup, '/v2/config', 200, 60_000);
    world = await setUp(apiOf(setup.url));
  } finally {
    setup.child.kill('SIGINT');
    await setup.exited;
  }
  const daemonArgs = [...profileArgs(), ...(options.daemonArgs ?? [])];
  let backend: DaemonProcess | null = null;
  let daemon: DaemonProcess;
  if (options.oneProcess) {
    daemon = await spawnDaemon(dataDir, { ...shared, LOG_LEVEL: process.env.LOG_LEVEL ?? 'info' }, daemonArgs); // npm start's level
  } else {
    backend = await spawnDaemon(dataDir, { ...shared, ROLES: 'ledger,worker,indexer' });
    await waitForLedgerRpc(Number(shared.LEDGER_RPC_PORT), 60_000);
    daemon = await spawnDaemon(
      dataDir,
      { ...shared, ROLES: 'api,matcher', RPC_URL: `http://127.0.0.1:${shared.LEDGER_RPC_PORT}` },
      daemonArgs,
    );
  }
  const stop = async () => {
    daemon.child.kill('SIGINT');
    backend?.child.kill('SIGCONT'); // a paused backend, after a failed load, would never see its SIGINT
    backend?.child.kill('SIGINT');
    await backend?.exited;
    await daemon.exited;
  };
  try {
    await waitForStatus(daemon, '/v2/config', 200, 60_000);
    // The restarted processes index the wallets again before they accept orders against them.
    await waitForYes(apiOf(daemon.url), world.seller, '500000000000');
  } catch (error) {
    await stop();
    throw error;
  }
  return { daemon, backend, ...world, stop };
}
