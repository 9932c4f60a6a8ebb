import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/databases.js';
import { isRunning, redisPid, startReadyDaemon, waitForStatus, waitUntilGone, within, type DaemonProcess } from './daemon-process.js';

// A start loads tsx and the whole tree: ~5 s idle, 20 s and more on a loaded 2-core machine.
// These are limits, not targets: a healthy run takes the idle time.
const STARTUP_MS = 60_000;
const SHUTDOWN_MS = 30_000;
const TEST_TIMEOUT_MS = 180_000;

describe('the daemon as a real process', () => {
  const started: DaemonProcess[] = [];
  const redisPids: number[] = [];
  afterEach(() => {
    // Only what this test started: the daemons and the redis-servers they spawned.
    for (const daemon of started.splice(0)) if (daemon.child.exitCode === null) daemon.child.kill('SIGKILL');
    for (const pid of redisPids.splice(0)) if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  });

  async function start(dataDir: string): Promise<DaemonProcess> {
    const daemon = await startReadyDaemon(dataDir, {}, '/health', STARTUP_MS); // new ports on EADDRINUSE
    started.push(daemon);
    const pid = redisPid(dataDir);
    redisPids.push(pid);
    expect(isRunning(pid)).toBe(true);
    return daemon;
  }

  it(
    'serves /health and /ready, keeps the admin token out of the log, and stops cleanly on SIGINT',
    async () => {
      const dataDir = path.join(tempDir(), 'data');
      const daemon = await start(dataDir);

      const tokenFile = path.join(dataDir, 'admin-token');
      expect(fs.statSync(tokenFile).mode & 0o777).toBe(0o600);
      // The private Redis listens on a unix socket under DATA_DIR, not on a TCP port.
      expect(fs.statSync(path.join(dataDir, 'redis', 'redis.sock')).isSocket()).toBe(true);
      expect(daemon.output()).toMatch(/"socket":"[^"]*redis\.sock".*embedded redis-server started/);
      const token = fs.readFileSync(tokenFile, 'utf8').trim();
      expect(token.length).toBeGreaterThanOrEqual(16);

      const ready = (await waitForStatus(daemon, '/ready', 200, STARTUP_MS)) as { ready: boolean; checks: Record<string, { ok: boolean }> };
      expect(ready.ready).toBe(true);
      expect(ready.checks.workers?.ok).toBe(true);

      const admin = await fetch(`${daemon.url}/admin/queues/api/queues`, { headers: { authorization: `Bearer ${token}` } });
      expect(admin.status).toBe(200);

      const redis = redisPid(dataDir);
      daemon.child.kill('SIGINT');
      const { code } = await within(daemon.exited, SHUTDOWN_MS, 'shutdown after SIGINT');
      expect(code).toBe(0);
      expect(await waitUntilGone(redis, 10_000)).toBe(true);

      const log = daemon.output();
      expect(log).toContain(tokenFile);
      expect(log).not.toContain(token);
      expect(log).not.toContain('Unhandled error event');
      expect(log).toMatch(/"msg":"stopped"/);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'after kill -9, a restart on the same DATA_DIR stops the stale redis-server and serves again',
    async () => {
      const dataDir = path.join(tempDir(), 'data');
      const first = await start(dataDir);
      const staleRedis = redisPid(dataDir);
      const token = fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8');

      first.child.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      expect(isRunning(staleRedis)).toBe(true); // left behind, in its own process group

      const second = await start(dataDir);
      expect(await waitUntilGone(staleRedis, 10_000)).toBe(true);
      const freshRedis = redisPid(dataDir);
      expect(freshRedis).not.toBe(staleRedis);
      expect(second.output()).toContain('stopped a redis-server left behind by an earlier run');
      expect(fs.readFileSync(path.join(dataDir, 'admin-token'), 'utf8')).toBe(token);
      await waitForStatus(second, '/ready', 200, STARTUP_MS);

      second.child.kill('SIGINT');
      expect((await within(second.exited, SHUTDOWN_MS, 'shutdown after SIGINT')).code).toBe(0);
      expect(await waitUntilGone(freshRedis, 10_000)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
