/**
 * The JSON-RPC read rows' server side (issue 15's getAccountInfo / getTokenAccountBalance rows of
 * http-table, issue 31, fourteenth pass): this process runs an in-memory ledger and its JSON-RPC
 * server; a child process asks one call `n` times over 10 keep-alive connections (autocannon, as
 * the row). Prints this process's CPU per request for getHealth (HTTP + dispatch, no ledger),
 * getAccountInfo (base64) and getTokenAccountBalance of a USDC token account, `rounds` times
 * each, rotating; and (`bare`) a bare node:http server in this process answering getHealth's
 * bytes (reads the body, writes the canned answer), which is what the HTTP alone costs here.
 *   npx tsx --conditions=pmx-source bench/support/rpc-read-cpu.ts [n=20000] [rounds=3]
 * `CLUSTER_SRC=<tree>/packages/local-cluster/src/index.ts` measures another tree's server (A/B).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { getAssociatedTokenAddressSync } from '@solana/spl-token';
import { Keypair, PublicKey } from '@solana/web3.js';
import type * as LocalCluster from '@pmx/local-cluster';
import { cannon } from './cannon.js';

if (process.argv[2] === '--client') {
  const [url, body, n] = process.argv.slice(3) as [string, string, string];
  const started = performance.now();
  const r = await cannon({
    url,
    connections: 10,
    amount: Number(n),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  console.log(JSON.stringify({ rps: Number(n) / ((performance.now() - started) / 1000), failures: r.non2xx + r.errors }));
  process.exit(0);
}

const { EmbeddedLedger, startClusterEndpoints } = (await import(process.env.CLUSTER_SRC ?? '@pmx/local-cluster')) as typeof LocalCluster;
const n = Number(process.argv[2] ?? 20_000);
const rounds = Number(process.argv[3] ?? 3);
const ledger = await EmbeddedLedger.open({});
const owner = Keypair.generate().publicKey;
await ledger.mintUsdc(owner, 1_000_000n);
const ata = getAssociatedTokenAddressSync(new PublicKey(ledger.bootstrapInfo.usdcMint), owner).toBase58();
const endpoints = await startClusterEndpoints(ledger, 0);
const bareAnswer = JSON.stringify({ jsonrpc: '2.0', result: 'ok', id: 1 });
const bare = createServer((req, res) => {
  req.on('data', () => {});
  req.on('end', () => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(bareAnswer) });
    res.end(bareAnswer);
  });
});
bare.keepAliveTimeout = 60_000;
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
const calls: [string, unknown[]][] = [
  ['bare', []],
  ['getHealth', []],
  ['getAccountInfo', [ata, { encoding: 'base64' }]],
  ['getTokenAccountBalance', [ata]],
];
const cpuUs = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
for (let round = 0; round < rounds; round++) {
  for (const [method, params] of [...calls.slice(round % calls.length), ...calls.slice(0, round % calls.length)]) {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: method === 'bare' ? 'getHealth' : method, params });
    const args = [
      '--conditions=pmx-source',
      '--import',
      'tsx',
      fileURLToPath(import.meta.url),
      '--client',
      method === 'bare' ? bareUrl : endpoints.rpcUrl,
      body,
      String(n),
    ];
    const cpu0 = cpuUs();
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, args, { encoding: 'utf8' }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
    );
    const cpu = cpuUs() - cpu0;
    const client = JSON.parse(out) as { rps: number; failures: number };
    const load = readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
    console.log(
      JSON.stringify({
        round,
        method,
        cpuUsPerRequest: +(cpu / n).toFixed(1),
        rps: Math.round(client.rps),
        failures: client.failures,
        load,
      }),
    );
  }
}
await new Promise((resolve) => bare.close(resolve));
await endpoints.close();
await ledger.close();
