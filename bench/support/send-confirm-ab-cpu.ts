/**
 * The JSON-RPC send + confirm path, two trees in one process (issue 31, fifteenth pass): each
 * tree's embedded ledger (persistent, as the daemon's) and its JSON-RPC server in this process; one
 * client child sends signed USDC transfers over 10 connections (sendTransaction, then
 * getSignatureStatuses, as the http-table row), to each tree in turn, rounds alternated ABBA, so
 * both see the same machine. Prints this process's CPU µs per transaction (signing excluded) per
 * round, the medians and the median of the paired ratios. `PROF=<dir>` writes a CPU profile of
 * this tree's measured rounds only (node:inspector, 50 µs sampling).
 *   npx tsx --conditions=pmx-source bench/support/send-confirm-ab-cpu.ts /work/wt-base [rounds=6] [n=2000] [port=43100]
 *   (child mode: ... send-confirm-ab-cpu.ts --client, then `url file` lines on stdin)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { EmbeddedLedger, startClusterEndpoints } from '@pmx/local-cluster';
import { fundedLedger, sendAndConfirmOverRpc, signedTransfers } from './send-confirm.js';
import { abSummary } from './ab-summary.js';

if (process.argv[2] === '--client') {
  for await (const line of createInterface({ input: process.stdin })) {
    const [url, file] = line.split(' ');
    const txs = readFileSync(file!, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => Buffer.from(l, 'base64'));
    process.stdout.write(`${JSON.stringify(await sendAndConfirmOverRpc(url!, txs))}\n`);
  }
  process.exit(0);
}

const [otherRoot = '/work/wt-base', roundsArg = '6', nArg = '2000', portArg = '43100'] = process.argv.slice(2);
const [rounds, n, port] = [Number(roundsArg), Number(nArg), Number(portArg)];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const work = mkdtempSync(join(tmpdir(), 'send-ab-'));

const client = spawn(process.execPath, ['--conditions=pmx-source', '--import', 'tsx', fileURLToPath(import.meta.url), '--client'], {
  stdio: ['pipe', 'pipe', 'inherit'],
});
const answers = createInterface({ input: client.stdout! })[Symbol.asyncIterator]();

async function open(root: string, at: number) {
  const tree = (await import(pathToFileURL(join(root, 'packages/local-cluster/src/index.ts')).href)) as {
    EmbeddedLedger: typeof EmbeddedLedger;
    startClusterEndpoints: typeof startClusterEndpoints;
  };
  const dir = mkdtempSync(join(work, 'ledger-'));
  const { ledger, payer, to, mint } = await fundedLedger(dir, 0, (options) => tree.EmbeddedLedger.open(options));
  const endpoints = await tree.startClusterEndpoints(ledger, at);
  let sent = 0;
  /** CPU µs per transaction over `count` sends and confirms (signed first, untimed). */
  async function run(count: number, profile?: Session): Promise<{ us: number; tps: number }> {
    const txs = signedTransfers(ledger.getLatestBlockhash().blockhash, mint, payer, to, count, 1 + sent);
    sent += count;
    const file = join(dir, 'txs.txt');
    writeFileSync(file, txs.map((t) => Buffer.from(t).toString('base64')).join('\n'));
    if (profile) await profile.post('Profiler.start');
    const cpu0 = process.cpuUsage();
    client.stdin!.write(`${endpoints.rpcUrl} ${file}\n`);
    const reply = JSON.parse((await answers.next()).value as string) as { tps: number; failures: number };
    const cpu = process.cpuUsage(cpu0);
    if (profile) profiles.push((await profile.post('Profiler.stop')).profile);
    if (reply.failures > 0) throw new Error(`${root}: ${reply.failures} failures`);
    return { us: (cpu.user + cpu.system) / count, tps: reply.tps };
  }
  return { root, run, close: async () => (await endpoints.close(), await ledger.close()) };
}

const profiles: object[] = [];
const session = process.env.PROF ? new Session() : undefined;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 50 });
}
const trees = [await open(resolve(otherRoot), port), await open(resolve(import.meta.dirname, '../..'), port + 10)];
for (const t of trees) await t.run(n); // warm-up: JIT, connections, caches
const us: number[][] = [[], []];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1, 1, 0] : [1, 0, 0, 1];
  const got: number[][] = [[], []];
  const tps: number[][] = [[], []];
  for (const i of order) {
    const out = await trees[i]!.run(n / 2, i === 1 ? session : undefined);
    got[i]!.push(out.us);
    tps[i]!.push(out.tps);
  }
  us[0]!.push((got[0]![0]! + got[0]![1]!) / 2);
  us[1]!.push((got[1]![0]! + got[1]![1]!) / 2);
  console.log(
    `round ${r + 1}: ${us[0]![r]!.toFixed(1)} (other, ${Math.round(median(tps[0]!))} tx/s) ${us[1]![r]!.toFixed(1)} (this, ${Math.round(median(tps[1]!))} tx/s) µs a transaction, load ${loadavg()[0]!.toFixed(1)}`,
  );
}
console.log(abSummary(trees[0]!.root, us[0]!, us[1]!));
if (session) {
  // One profile of every measured round of this tree: their samples, one after another.
  profiles.forEach((p, i) => writeFileSync(join(process.env.PROF!, `send-ab-${i}.cpuprofile`), JSON.stringify(p)));
  session.disconnect();
}
for (const t of trees) await t.close();
client.stdin!.end();
rmSync(work, { recursive: true, force: true });
