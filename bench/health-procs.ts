/**
 * What bench/health-threads.ts and bench/health-daemons-ab.ts share: a daemon started as
 * `npm start` runs it (the compiled `dist/src/main.js` of a checkout, embedded cluster and Redis,
 * the http-table bench's settings), and each thread's CPU read from /proc.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { findFreePort, findFreePortPair } from '../src/infra/free-port.js';
import { tempDir } from '../test/helpers/databases.js';

const TICK_US = 10_000; // USER_HZ: /proc counts 1/100 s

/** CPU µs of each thread of `pid`, keyed `main user|sys` or `<thread name> user|sys`, summed per name. */
export function threads(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const name = Number(tid) === pid ? 'main' : stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const add = (key: string, ticks: number) => out.set(key, (out.get(key) ?? 0) + ticks * TICK_US);
      add(`${name} user`, Number(f[11]));
      add(`${name} sys`, Number(f[12]));
    } catch {
      // the thread ended while read
    }
  }
  return out;
}

/** Direct children of `pid` (the daemon's redis-server), by /proc's ppid. */
export function children(pid: number): number[] {
  return fs
    .readdirSync('/proc')
    .filter((e) => /^\d+$/.test(e))
    .filter((e) => {
      try {
        const s = fs.readFileSync(`/proc/${e}/stat`, 'utf8');
        return Number(s.slice(s.lastIndexOf(')') + 2).split(' ')[1]) === pid;
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** Threads of several named process groups; a group's first pid is its own, the rest its children. */
export function snapshot(pids: Record<string, number[]>): Map<string, number> {
  const all = new Map<string, number>();
  for (const [who, list] of Object.entries(pids))
    for (const [i, pid] of list.entries())
      for (const [k, v] of threads(pid)) {
        const key = i === 0 ? `${who} ${k}` : `${who} child ${k.replace(/^main /, '')}`;
        all.set(key, (all.get(key) ?? 0) + v);
      }
  return all;
}

export interface RunningDaemon {
  url: string;
  dataDir: string;
  pid: number;
  stop(): void;
}

/**
 * `node [nodeArgs] dist/src/main.js` in `root`, with http-table's settings (rate limits on at a
 * limit no run reaches, LOG_LEVEL=warn, no per-client connection cap); stdout to DATA_DIR/stdout.log.
 */
export async function startDaemon(root: string, nodeArgs: string[] = [], extraEnv: Record<string, string> = {}): Promise<RunningDaemon> {
  const port = await findFreePort();
  let ledgerPort = await findFreePortPair();
  while (Math.abs(ledgerPort - port) <= 1) ledgerPort = await findFreePortPair();
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['REDIS_URL', 'DATABASE_URL', 'ADMIN_TOKEN', 'ROLES', 'CHAIN', 'RPC_URL', 'QUEUE_PREFIX', 'NODE_OPTIONS']) delete env[k];
  const dataDir = tempDir('pmx-health-daemon-');
  Object.assign(env, {
    DATA_DIR: dataDir,
    PORT: String(port),
    LEDGER_RPC_PORT: String(ledgerPort),
    LOG_PRETTY: 'false',
    LOG_LEVEL: 'warn',
    HEARTBEAT_INTERVAL_MS: '1000',
    RATE_LIMIT_READ_PER_MIN: '1000000',
    RATE_LIMIT_WRITE_PER_MIN: '1000000',
    HTTP_MAX_CONNECTIONS_PER_CLIENT: '0',
    ...extraEnv,
  });
  const child = spawn(process.execPath, [...nodeArgs, 'dist/src/main.js'], {
    cwd: root,
    env,
    stdio: ['ignore', fs.openSync(path.join(dataDir, 'stdout.log'), 'w'), 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 600; i++) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return { url, dataDir, pid: child.pid!, stop: () => child.kill('SIGINT') };
    if (child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`daemon in ${root} did not answer /health (see ${dataDir}/stdout.log)`);
}
