/**
 * With no REDIS_URL the daemon runs a private redis-server on a unix socket,
 * DATA_DIR/redis/redis.sock (mode 0700, no TCP port; 127.0.0.1 on a free port only when that path
 * is too long for a socket), files under DATA_DIR/redis, AOF on (so acknowledged jobs survive a
 * crash) and `noeviction` (BullMQ must never lose keys to eviction). It runs in its own process
 * group so that Ctrl-C reaches only the daemon, which then drains its workers before stopping
 * Redis. A server left behind by a killed daemon is found by its pid file and stopped on the next
 * start.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { findFreePort } from './free-port.js';

export interface EmbeddedRedis {
  url: string;
  stop(): Promise<void>;
}

export class RedisBinaryMissingError extends Error {
  constructor() {
    super(
      'redis-server was not found on PATH. Install it (Debian/Ubuntu: apt-get install redis-server; ' +
        'macOS: brew install redis) or set REDIS_URL=redis://host:port to use an existing Redis.',
    );
    this.name = 'RedisBinaryMissingError';
  }
}

function redisBinaryExists(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Whether `pid` is alive (a zombie awaiting its reaper counts as gone). */
function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^[ZX]/.test(stat.slice(stat.lastIndexOf(')') + 2));
  } catch {
    return false;
  }
}

/**
 * Stops a server left behind by a killed daemon and waits until it has exited: on its way out it
 * deletes its pid file and rewrites the AOF, which must not happen under the new server's feet.
 */
async function stopStaleServer(pidFile: string, log: Logger): Promise<void> {
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return;
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    if (!cmdline.includes('redis-server')) return;
    process.kill(pid, 'SIGTERM');
  } catch {
    return; // not running any more (or no /proc): nothing to stop
  }
  const deadline = Date.now() + 5_000;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
  if (alive(pid)) process.kill(pid, 'SIGKILL');
  while (alive(pid)) await new Promise((r) => setTimeout(r, 25));
  log.warn({ pid }, 'stopped a redis-server left behind by an earlier run');
}

async function waitForPing(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`redis-server exited with code ${child.exitCode}`);
    const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    client.on('error', () => undefined); // refused while the server boots; connect() rejects too
    try {
      await client.connect();
      if ((await client.ping()) === 'PONG') return;
    } catch {
      // not up yet
    } finally {
      client.disconnect();
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not answer within ${timeoutMs} ms`);
}

export async function startEmbeddedRedis(dataDir: string, log: Logger): Promise<EmbeddedRedis> {
  if (!redisBinaryExists()) throw new RedisBinaryMissingError();
  const dir = path.join(dataDir, 'redis');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const pidFile = path.join(dir, 'redis.pid');
  await stopStaleServer(pidFile, log);

  // A unix socket under DATA_DIR (mode 0700 like its directory): no TCP port that could collide
  // with the user's own services or be reached by other users. Socket paths are limited to ~107
  // bytes, so a very deep DATA_DIR falls back to a free loopback port.
  const socket = path.join(dir, 'redis.sock');
  const useSocket = Buffer.byteLength(socket) <= 100;
  const port = useSocket ? 0 : await findFreePort();
  const listen = useSocket
    ? ['--port', '0', '--unixsocket', socket, '--unixsocketperm', '700']
    : ['--bind', '127.0.0.1', '--port', String(port)];
  const args = [
    ...listen,
    '--dir',
    dir,
    '--appendonly',
    'yes',
    '--appendfsync',
    'everysec',
    '--maxmemory-policy',
    'noeviction',
    '--save',
    '',
    '--daemonize',
    'no',
    '--pidfile',
    pidFile,
    '--logfile',
    path.join(dir, 'redis.log'),
    '--protected-mode',
    'yes',
  ];
  const child = spawn('redis-server', args, { detached: true, stdio: 'ignore' });
  child.unref();
  // ioredis takes a socket path where it takes a URL.
  const url = useSocket ? socket : `redis://127.0.0.1:${port}`;
  await waitForPing(url, child, 10_000);
  log.info(useSocket ? { socket, dir } : { port, dir }, 'embedded redis-server started');

  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGTERM'); // redis-server flushes the AOF and exits on SIGTERM
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      log.info('embedded redis-server stopped');
    },
  };
}
