/**
 * A daemon whose HTTP port is taken exits 1 with a line that names the setting to change, after
 * closing everything it had opened (its private Redis and its ledger too).
 */
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findFreePort } from '../../src/infra/free-port.js';
import { tempDir } from '../helpers/databases.js';
import { spawnDaemon, within } from './daemon-process.js';

const servers: net.Server[] = [];
afterAll(async () => {
  for (const server of servers) await new Promise((resolve) => server.close(resolve));
});

describe('a port already in use', () => {
  it('names PORT in the fatal line and exits 1', async () => {
    const port = await findFreePort();
    const server = net.createServer();
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    const daemon = await spawnDaemon(path.join(tempDir('pmx-port-'), 'data'), { PORT: String(port), LOG_LEVEL: 'warn' });
    const exit = await within(daemon.exited, 90_000, 'a daemon whose port is taken');
    expect(exit.code).toBe(1);
    expect(daemon.output()).toContain(`PORT=${port} is in use (EADDRINUSE); set PORT to a free port, or stop what holds it`);
  }, 120_000);
});
