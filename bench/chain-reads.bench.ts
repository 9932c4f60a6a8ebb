// Embedded JSON-RPC read path: getAccountInfo and getTokenAccountBalance through the cluster's
// JSON-RPC server against a bare node:http server answering the very same bytes, in the same run
// with the same keep-alive client (16 in flight). The ratio is the share of the HTTP ceiling the
// JSON-RPC layer keeps (goal ≥ 0.7x): parsing, validation, the ledger read and encoding.
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import pino from 'pino';
import { createChain } from '../src/chain/create-chain.js';

const REQUESTS = 6000;
const CONCURRENCY = 16;

function postOnce(agent: Agent, url: string, body: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve(Buffer.concat(chunks).toString()));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function reqPerSec(url: string, body: string): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  for (let i = 0; i < 1500; i++) await postOnce(agent, url, body); // warm-up (JIT, sockets): fewer skews the first side measured
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next++ < REQUESTS) await postOnce(agent, url, body);
    }),
  );
  const rate = REQUESTS / ((performance.now() - t0) / 1000);
  agent.destroy();
  return rate;
}

/** A server doing nothing but reading the body and answering `bytes`: the HTTP ceiling. */
async function bareServer(bytes: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    req.on('data', () => {});
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(bytes) });
      res.end(bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

export async function run(): Promise<void> {
  const chain = await createChain({ chain: 'embedded', ledgerRpcPort: 0, logger: pino({ level: 'silent' }) });
  try {
    const owner = Keypair.generate().publicKey;
    await chain.ledger!.mintUsdc(owner, 1_000_000n);
    const ata = getAssociatedTokenAddressSync(new PublicKey(chain.ledger!.bootstrapInfo.usdcMint), owner).toBase58();
    const calls: [string, unknown[]][] = [
      ['getHealth', []], // the HTTP + dispatch floor, no ledger work
      ['getAccountInfo', [ata, { encoding: 'base64' }]],
      ['getTokenAccountBalance', [ata]],
    ];
    for (const [method, params] of calls) {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
      const agent = new Agent({ keepAlive: true });
      const answer = await postOnce(agent, chain.rpcUrl, body);
      agent.destroy();
      const bare = await bareServer(answer);
      // Alternate three times and keep each side's best: the machine is shared.
      let rpc = 0;
      let ceiling = 0;
      for (let round = 0; round < 3; round++) {
        rpc = Math.max(rpc, await reqPerSec(chain.rpcUrl, body));
        ceiling = Math.max(ceiling, await reqPerSec(bare.url, body));
      }
      await bare.close();
      console.log(
        `chain.rpc.${method}: ${Math.round(rpc).toLocaleString('en-US')} req/s through JSON-RPC vs ${Math.round(ceiling).toLocaleString('en-US')} req/s ` +
          `from a bare node:http server answering the same ${answer.length} bytes; ratio ${(rpc / ceiling).toFixed(2)}x (goal ≥ 0.70x)`,
      );
    }
  } finally {
    await chain.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await run();
}
