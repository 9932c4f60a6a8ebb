import { spawn } from 'node:child_process';
import net from 'node:net';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { listensOn } from './daemon-process.js';

// The daemon tests trust an answer on a daemon's port only once that daemon holds the socket:
// a port picked for it can be taken first by another test's server (CI read a foreign 401).
describe('listensOn', () => {
  it('tells the process that holds a listening port from one that does not', async () => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as net.AddressInfo;
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    try {
      expect(listensOn(process.pid, port)).toBe(true);
      expect(listensOn(other.pid, port)).toBe(false);
      expect(listensOn(undefined, port)).toBe(false);
    } finally {
      other.kill('SIGKILL');
      server.close();
    }
    await once(server, 'close');
    expect(listensOn(process.pid, port)).toBe(false);
  });
});
