import net from 'node:net';

/** Asks the kernel for a free TCP port on `host` (a tiny race remains; callers retry on EADDRINUSE). */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Two consecutive free ports (the embedded ledger's JSON-RPC and, one above it, its PubSub), both held while checked. */
export async function findFreePortPair(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await findFreePort(host);
    const second = net.createServer();
    second.unref();
    const free = await new Promise<boolean>((resolve) => {
      second.once('error', () => resolve(false));
      second.listen(first + 1, host, () => second.close(() => resolve(true)));
    });
    if (free) return first;
  }
  throw new Error('no two consecutive free ports found');
}
