/**
 * Runs the real daemon (`node --import tsx src/main.ts`) as a child process for tests: its own
 * DATA_DIR and HTTP port, the embedded redis-server (no REDIS_URL), JSON logs captured.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findFreePort, findFreePortPair } from '../../src/infra/free-port.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
/** Keys of the test environment the daemon must not inherit (it must start its own Redis and SQLite). */
const STRIPPED = ['REDIS_URL', 'DATABASE_URL', 'ADMIN_TOKEN', 'PORT', 'HOST', 'ROLES', 'LOG_LEVEL', 'CHAIN', 'RPC_URL', 'QUEUE_PREFIX'];

/**
 * Every daemon this test process spawned and that still runs: killed when the test process exits,
 * so that a test that times out in the middle of a (re)start leaves no daemon behind (one did).
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface DaemonProcess {
  child: ChildProcess;
  url: string;
  dataDir: string;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * `nodeArgs` go before the entry point (benches: `--cpu-prof`, which NODE_OPTIONS refuses);
 * `entry` is what runs (benches: the compiled `dist/src/main.js`, as `npm start` runs it).
 */
export async function spawnDaemon(
  dataDir: string,
  extraEnv: Record<string, string> = {},
  nodeArgs: string[] = [],
  entry: string[] = ['--conditions=pmx-source', '--import', 'tsx', 'src/main.ts'],
): Promise<DaemonProcess> {
  const port = await findFreePort();
  // Two asks in a row can get the same port back (the first was closed again at once); the ledger
  // also takes the next port for PubSub, so keep them apart.
  let ledgerPort = await findFreePortPair();
  while (Math.abs(ledgerPort - port) <= 1) ledgerPort = await findFreePortPair();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of STRIPPED) delete env[key];
  Object.assign(env, {
    DATA_DIR: dataDir,
    PORT: String(port),
    LOG_PRETTY: 'false',
    HEARTBEAT_INTERVAL_MS: '1000',
    LEDGER_RPC_PORT: String(ledgerPort),
    ...extraEnv,
  });
  const child = spawn(process.execPath, [...nodeArgs, ...entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, url: `http://127.0.0.1:${port}`, dataDir, output: () => output, exited };
}

/**
 * Spawns the daemon and waits until `readyPath` answers 200. A free port picked for it can be
 * taken by another test before it binds (the suite runs files in parallel): on EADDRINUSE it
 * tries again with fresh ports, up to `attempts` times; any other early exit throws with the log.
 */
export async function startReadyDaemon(
  dataDir: string,
  extraEnv: Record<string, string>,
  readyPath = '/health',
  timeoutMs = 60_000,
  attempts = 3,
): Promise<DaemonProcess> {
  for (let attempt = 1; ; attempt++) {
    const daemon = await spawnDaemon(dataDir, extraEnv);
    try {
      await waitForStatus(daemon, readyPath, 200, timeoutMs);
      return daemon;
    } catch (error) {
      if (daemon.child.exitCode === null) {
        daemon.child.kill('SIGKILL');
        await daemon.exited;
      }
      if (attempt >= attempts || !daemon.output().includes('EADDRINUSE')) throw error;
    }
  }
}

/**
 * Whether the child itself holds a listening socket on `port` (Linux: /proc/net/tcp's inode among
 * its fds). Until then an answer on the port may come from another test's server that took the
 * port first: CI once read a foreign daemon's 401 with this daemon's admin token.
 */
export function listensOn(pid: number | undefined, port: number): boolean {
  if (pid === undefined) return false;
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const rows = fs.existsSync(table) ? fs.readFileSync(table, 'utf8').split('\n').slice(1) : [];
    for (const row of rows) {
      const cols = row.trim().split(/\s+/);
      if (cols[1]?.endsWith(`:${hexPort}`) && cols[3] === '0A') inodes.add(`socket:[${cols[9]}]`); // 0A: LISTEN
    }
  }
  if (inodes.size === 0) return false;
  try {
    return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => inodes.has(safeReadlink(`/proc/${pid}/fd/${fd}`)));
  } catch {
    return false; // the child is gone
  }
}

function safeReadlink(file: string): string {
  try {
    return fs.readlinkSync(file);
  } catch {
    return '';
  }
}

const started = (daemon: DaemonProcess): boolean => listensOn(daemon.child.pid, Number(new URL(daemon.url).port));

/** Polls `url` until it answers `status`, or throws with the daemon's log after `timeoutMs`. */
export async function waitForStatus(daemon: DaemonProcess, pathname: string, status: number, timeoutMs: number): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer';
  while (Date.now() < deadline) {
    if (daemon.child.exitCode !== null) throw new Error(`daemon exited with ${daemon.child.exitCode}:\n${daemon.output()}`);
    try {
      if (!started(daemon)) throw new Error('not started yet');
      const response = await fetch(`${daemon.url}${pathname}`, { signal: AbortSignal.timeout(2_000) });
      const body: unknown = await response.json().catch(() => undefined);
      if (response.status === status) return body;
      last = `${response.status} ${JSON.stringify(body)}`;
    } catch (error) {
      last = (error as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${pathname} did not answer ${status} within ${timeoutMs} ms (last: ${last}):\n${daemon.output().slice(-4000)}`);
}

/**
 * Starts a process with the ledger role and no api role on a free JSON-RPC port, waiting for the
 * RPC to answer; a fresh port when a parallel test took the picked one first (EADDRINUSE).
 */
export async function startLedgerDaemon(
  dataDir: string,
  extraEnv: Record<string, string>,
  timeoutMs = 60_000,
  attempts = 3,
): Promise<{ daemon: DaemonProcess; port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort();
    const daemon = await spawnDaemon(dataDir, { ...extraEnv, LEDGER_RPC_PORT: String(port) });
    try {
      await waitForLedgerRpc(port, timeoutMs, daemon);
      return { daemon, port };
    } catch (error) {
      if (daemon.child.exitCode === null) {
        daemon.child.kill('SIGKILL');
        await daemon.exited;
      }
      if (attempt >= attempts || !daemon.output().includes('EADDRINUSE')) throw error;
    }
  }
}

/** Polls the embedded ledger's JSON-RPC (a process with the ledger role but no api role serves no HTTP API). */
export async function waitForLedgerRpc(port: number, timeoutMs: number, daemon?: DaemonProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (daemon && daemon.child.exitCode !== null)
      throw new Error(`ledger process exited with ${daemon.child.exitCode}:\n${daemon.output().slice(-4000)}`);
    const ok =
      (!daemon || listensOn(daemon.child.pid, port)) &&
      (await fetch(`http://127.0.0.1:${port}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getHealth' }),
      }).then(
        (r) => r.ok,
        () => false,
      ));
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`ledger JSON-RPC on ${port} did not come up within ${timeoutMs} ms${daemon ? `:\n${daemon.output().slice(-4000)}` : ''}`);
}

export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Whether `pid` is a live process (a zombie awaiting its reaper counts as gone). */
export function isRunning(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return !isRunning(pid);
}

export function redisPid(dataDir: string): number {
  return Number(fs.readFileSync(path.join(dataDir, 'redis', 'redis.pid'), 'utf8').trim());
}
