/**
 * The ledger alone, two trees in one process (issue 31, fourteenth pass): signed USDC transfers
 * landed through `sendRawTransaction` with group commit, `group` per turn, on a persistent ledger
 * (WAL, as the daemon's) of this tree and one of `other`'s, alternated in rounds of `round`
 * transfers (ABBA), so both see the same machine whatever the other processes do. Prints CPU µs per
 * transfer (signing excluded) per round, the medians and the median of the paired ratios.
 *   npx tsx --conditions=pmx-source bench/support/ledger-ab-cpu.ts /work/wt-base [rounds] [round] [group]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EmbeddedLedger } from '@pmx/local-cluster';
import { fundedLedger, signedTransfers } from './send-confirm.js';
import { abSummary } from './ab-summary.js';

const [otherRoot = '/work/wt-base', roundsArg = '8', roundArg = '500', groupArg = '4'] = process.argv.slice(2);
const [rounds, round, group] = [Number(roundsArg), Number(roundArg), Number(groupArg)];

async function open(root: string) {
  // The tree's own ledger class; the type is this tree's, as both keep its interface.
  const tree = (await import(pathToFileURL(join(root, 'packages/local-cluster/src/index.ts')).href)) as {
    EmbeddedLedger: typeof EmbeddedLedger;
  };
  const dir = mkdtempSync(join(tmpdir(), 'ledger-ab-'));
  const { ledger, payer, to, mint } = await fundedLedger(dir, 0, (options) => tree.EmbeddedLedger.open(options));
  let sent = 0;
  /** CPU µs per transfer over `n` transfers (signed first, untimed). */
  async function land(n: number): Promise<number> {
    const txs = signedTransfers(ledger.getLatestBlockhash().blockhash, mint, payer, to, n, 1 + sent);
    sent += n;
    const cpu0 = process.cpuUsage();
    for (let i = 0; i < n; i += group) {
      const out = await Promise.all(txs.slice(i, i + group).map((raw) => ledger.sendRawTransaction(raw, { groupCommit: true })));
      if (out.some((r) => r.err !== null)) throw new Error(`failed: ${JSON.stringify(out.find((r) => r.err !== null))}`);
    }
    const cpu = process.cpuUsage(cpu0);
    return (cpu.user + cpu.system) / n;
  }
  return { root, land, close: async () => (await ledger.close(), rmSync(dir, { recursive: true, force: true })) };
}

const trees = [await open(resolve(otherRoot)), await open(resolve(import.meta.dirname, '../..'))];
for (const t of trees) await t.land(round); // warm-up: JIT, caches
const us: number[][] = [[], []];
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? [0, 1, 1, 0] : [1, 0, 0, 1];
  const got: number[][] = [[], []];
  for (const i of order) got[i]!.push(await trees[i]!.land(round / 2));
  us[0]!.push((got[0]![0]! + got[0]![1]!) / 2);
  us[1]!.push((got[1]![0]! + got[1]![1]!) / 2);
  console.log(
    `round ${r + 1}: ${us[0]![r]!.toFixed(1)} (other) ${us[1]![r]!.toFixed(1)} (this) µs a transfer, load ${loadavg()[0]!.toFixed(1)}`,
  );
}
console.log(abSummary(trees[0]!.root, us[0]!, us[1]!));
for (const t of trees) await t.close();
