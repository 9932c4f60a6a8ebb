/**
 * At most `max` open TCP connections per peer address: one client opening thousands of
 * half-finished requests must not exhaust the process's sockets for everyone else. Counted on the
 * TCP peer (behind a reverse proxy every client shares the proxy's address: raise the cap there,
 * or set it to 0 and let the proxy enforce it).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

export function capConnectionsPerClient(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const peer = socket.remoteAddress ?? 'unknown';
    const count = (open.get(peer) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(peer, count);
    socket.once('close', () => {
      const left = (open.get(peer) ?? 1) - 1;
      if (left <= 0) open.delete(peer);
      else open.set(peer, left);
    });
  });
}
