/**
 * The embedded ledger's JSON-RPC send + confirm alone (issue 31): this process runs the ledger
 * (persistent, as the daemon's) and its JSON-RPC server; a child process sends `n` signed USDC
 * transfers over 10 connections (sendTransaction, then getSignatureStatuses, as the http-table
 * row). Prints this process's CPU per transaction (signing excluded). `--cpu-prof` profiles it.
 * `--floor`: the same client against the durable floor (send-confirm-floor.ts, its own process),
 * whose CPU per transaction is read from /proc: what ours is above it (FLOOR_PROF=<dir> profiles
 * the floor's process). `--statuses`: only getSignatureStatuses, two per transaction (the HTTP +
 * JSON-RPC layer alone).
 *   npx tsx --conditions=pmx-source bench/support/send-confirm-rpc-cpu.ts [n] [--floor]
 *   (child mode: ... send-confirm-rpc-cpu.ts --client <url> <file>)
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Keypair, PublicKey } from '@solana/web3.js';
import { startClusterEndpoints } from '@pmx/local-cluster';
import { cannon } from './cannon.js';
import { fundedLedger, sendAndConfirmOverRpc, signedTransfers } from './send-confirm.js';

if (process.argv[2] === '--client' && process.argv[5] === '--statuses') {
  // The HTTP + JSON-RPC layer alone: getSignatureStatuses of a signature nobody sent, twice per transaction.
  const body = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'getSignatureStatuses', params: [['1'.repeat(88)]] });
  const n = readFileSync(process.argv[4]!, 'utf8').split('\n').filter(Boolean).length * 2;
  const started = performance.now();
  const r = await cannon({
    url: process.argv[3]!,
    connections: 10,
    amount: n,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  console.log(JSON.stringify({ tps: n / 2 / ((performance.now() - started) / 1000), failures: r.non2xx + r.errors }));
  process.exit(0);
}
if (process.argv[2] === '--client') {
  const txs = readFileSync(process.argv[4]!, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => Buffer.from(l, 'base64'));
  const out = await sendAndConfirmOverRpc(process.argv[3]!, txs);
  console.log(JSON.stringify(out));
  process.exit(0);
}

/** User + system CPU of process `pid`, in µs (/proc/<pid>/stat, clock ticks of 10 ms). */
function procCpuUs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

interface Server {
  url: string;
  txs: Uint8Array[];
  cpuUs(): number;
  close(): Promise<void>;
}

async function ours(dir: string, n: number): Promise<Server> {
  const { ledger, txs } = await fundedLedger(dir, n);
  const endpoints = await startClusterEndpoints(ledger, 0);
  return {
    url: endpoints.rpcUrl,
    txs,
    cpuUs: () => {
      const c = process.cpuUsage();
      return c.user + c.system;
    },
    close: async () => {
      await endpoints.close();
      await ledger.close();
    },
  };
}

async function floor(n: number): Promise<Server> {
  const script = join(fileURLToPath(import.meta.url), '..', 'send-confirm-floor.ts');
  const child = spawn(
    process.execPath,
    [
      ...(process.env.FLOOR_PROF ? ['--cpu-prof', '--cpu-prof-dir=' + process.env.FLOOR_PROF] : []),
      '--conditions=pmx-source',
      '--import',
      'tsx',
      script,
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const line = await new Promise<string>((resolve) => createInterface({ input: child.stdout! }).once('line', resolve));
  const info = JSON.parse(line) as { url: string; blockhash: string; mint: string; payer: number[]; to: string };
  const payer = Keypair.fromSecretKey(Uint8Array.from(info.payer));
  return {
    url: info.url,
    txs: signedTransfers(info.blockhash, new PublicKey(info.mint), payer, new PublicKey(info.to), n),
    cpuUs: () => procCpuUs(child.pid!),
    close: async () => {
      child.stdin!.end();
      await new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

const n = Number(process.argv[2] ?? 3000);
const dir = mkdtempSync(join(tmpdir(), 'rpc-cpu-'));
const server = process.argv.includes('--floor') ? await floor(n) : await ours(dir, n);
const file = join(dir, 'txs.txt');
writeFileSync(file, server.txs.map((t) => Buffer.from(t).toString('base64')).join('\n'));
const cpu0 = server.cpuUs();
const args = ['--conditions=pmx-source', '--import', 'tsx', fileURLToPath(import.meta.url), '--client', server.url, file];
if (process.argv.includes('--statuses')) args.push('--statuses');
const answer = await new Promise<string>((resolve, reject) =>
  execFile(process.execPath, args, { encoding: 'utf8' }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
);
const cpu = server.cpuUs() - cpu0;
const client = JSON.parse(answer) as { tps: number; failures: number };
console.log(
  JSON.stringify({
    side: process.argv.includes('--floor') ? 'floor' : 'ours',
    ...(process.argv.includes('--statuses') ? { calls: 'statuses only, 2 per transaction' } : {}),
    n,
    cpuUsPerTx: +(cpu / n).toFixed(1),
    tps: Math.round(client.tps),
    failures: client.failures,
  }),
);
await server.close();
rmSync(dir, { recursive: true, force: true });
