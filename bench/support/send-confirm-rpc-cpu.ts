/**
 * The embedded ledger's JSON-RPC send + confirm alone (issue 31): this process runs the ledger
 * (persistent, as the daemon's) and its JSON-RPC server; a child process sends `n` signed USDC
 * transfers over 10 connections (sendTransaction, then getSignatureStatuses, as the http-table
 * row). Prints this process's CPU per transaction (signing excluded). `--cpu-prof` profiles it.
 *   npx tsx --conditions=pmx-source bench/support/send-confirm-rpc-cpu.ts [n]
 *   (child mode: ... send-confirm-rpc-cpu.ts --client <url> <file>)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Keypair, PublicKey } from '@solana/web3.js';
import { EmbeddedLedger, startClusterEndpoints } from '@pmx/local-cluster';
import { sendAndConfirmOverRpc, signedTransfers } from './send-confirm.js';

if (process.argv[2] === '--client') {
  const txs = readFileSync(process.argv[4]!, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => Buffer.from(l, 'base64'));
  const out = await sendAndConfirmOverRpc(process.argv[3]!, txs);
  console.log(JSON.stringify(out));
  process.exit(0);
}
const n = Number(process.argv[2] ?? 3000);
const dir = mkdtempSync(join(tmpdir(), 'rpc-cpu-'));
const ledger = await EmbeddedLedger.open({ dataDir: dir });
const endpoints = await startClusterEndpoints(ledger, 0);
const payer = Keypair.generate();
const to = Keypair.generate().publicKey;
await ledger.airdrop(payer.publicKey, 10_000_000_000n);
await ledger.mintUsdc(payer.publicKey, 10n ** 12n);
await ledger.mintUsdc(to, 1n);
const txs = signedTransfers(ledger.getLatestBlockhash().blockhash, new PublicKey(ledger.bootstrapInfo.usdcMint), payer, to, n);
const file = join(dir, 'txs.txt');
writeFileSync(file, txs.map((t) => Buffer.from(t).toString('base64')).join('\n'));
const url = endpoints.rpcUrl;
const cpu0 = process.cpuUsage();
const args = ['--conditions=pmx-source', '--import', 'tsx', fileURLToPath(import.meta.url), '--client', url, file];
const answer = await new Promise<string>((resolve, reject) =>
  execFile(process.execPath, args, { encoding: 'utf8' }, (err, stdout) => (err ? reject(err) : resolve(stdout))),
);
const cpu = process.cpuUsage(cpu0);
const client = JSON.parse(answer) as { tps: number; failures: number };
console.log(
  JSON.stringify({ n, cpuUsPerTx: +((cpu.user + cpu.system) / n).toFixed(1), tps: Math.round(client.tps), failures: client.failures }),
);
await endpoints.close();
await ledger.close();
rmSync(dir, { recursive: true, force: true });
