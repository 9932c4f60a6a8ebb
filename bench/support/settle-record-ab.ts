/**
 * A keeper group's two PostgreSQL transactions, the statements one by one (as the fourteenth pass
 * left them) against this pass's (issue 31, fifteenth pass): the record (lockFills, the batches
 * with their places, the fills' move, the outbound rows, against `recordGroup`'s one statement) and
 * the confirmation's locks and settle UPDATE (lockFills then the UPDATE, against the UPDATE with its
 * locking CTE). Same process, same database, groups alternated ABBA so both see the same machine;
 * prints wall ms and this process's CPU µs per group, per round and medians.
 *   npx tsx --conditions=pmx-source bench/support/settle-record-ab.ts [rounds=8] [groups a half-round=10] [fills a group=29]
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { Transaction } from 'kysely';
import { openPostgres } from '../../db/database.js';
import { migrateToLatest } from '../../db/migrator.js';
import { insertFills } from '../../db/repositories/clob-fills.repository.js';
import { insertBatches, settleGroupFills, settleLockedGroupFills } from '../../db/repositories/clob-settle-group.repository.js';
import { moveGroupFills, recordGroup } from '../../db/repositories/clob-settle-record.repository.js';
import { insertOutbounds, type NewOutbound } from '../../db/repositories/outbound-transactions.repository.js';
import { lockFills } from '../../db/row-locks.js';
import type { Database } from '../../db/schema.js';
import { fillRow } from '../../test/helpers/fill-rows.js';
import { freshPostgresDatabase } from './bench-postgres.js';

const [rounds = 8, perHalf = 10, perGroup = 29] = process.argv.slice(2).map(Number);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const now = new Date().toISOString();
let seq = 0;

type Group = {
  batches: Array<{ id: string; marketId: string; outboundId: string; fillIds: string[]; now: string }>;
  outbounds: NewOutbound[];
};
function newGroup(): { ids: string[]; group: Group } {
  const ids = Array.from({ length: perGroup }, () => randomUUID());
  const halves = [ids.slice(0, perGroup >> 1), ids.slice(perGroup >> 1)];
  const batches = halves.map((fillIds) => ({ id: randomUUID(), marketId: 'm1', outboundId: randomUUID(), fillIds, now }));
  const outbounds = batches.map((b) => ({
    id: b.outboundId,
    idempotencyKey: `c-settle-${b.id}`,
    purpose: 'clob.settle',
    params: JSON.stringify({ batchId: b.id, marketId: 'm1' }),
    now,
    built: { signature: `sig-${b.id}`, rawTx: 'A'.repeat(1600), blockhash: 'hash', lastValidBlockHeight: 1 },
  }));
  return { ids, group: { batches, outbounds } };
}

const landedOf = (g: Group) => g.batches.map((b) => ({ batchId: b.id, settleTx: `sig-${b.id}`, fillIds: b.fillIds }));
type Path = {
  name: string;
  record: (trx: Transaction<Database>, g: Group) => Promise<unknown>;
  settle: (trx: Transaction<Database>, g: Group) => Promise<unknown>;
};
const paths: Path[] = [
  {
    name: 'one by one (base)',
    record: async (trx: Transaction<Database>, g: Group) => {
      await lockFills(
        trx,
        g.batches.flatMap((b) => b.fillIds),
      );
      await insertBatches(trx, g.batches);
      await moveGroupFills(
        trx,
        g.batches.map((b) => ({ batchId: b.id, fillIds: b.fillIds })),
        now,
      );
      await insertOutbounds(trx, g.outbounds);
    },
    settle: async (trx: Transaction<Database>, g: Group) => {
      await lockFills(
        trx,
        g.batches.flatMap((b) => b.fillIds),
      );
      await settleGroupFills(trx, landedOf(g), now, new Map());
    },
  },
  {
    name: 'one statement (this pass)',
    record: (trx: Transaction<Database>, g: Group) => recordGroup(trx, g.batches, g.outbounds, now),
    settle: (trx: Transaction<Database>, g: Group) =>
      settleLockedGroupFills(
        trx,
        landedOf(g),
        now,
        new Map(),
        g.batches.flatMap((b) => b.fillIds),
      ),
  },
];

const database = await freshPostgresDatabase('record_ab');
const handle = openPostgres(database.url, 4);
try {
  await migrateToLatest(handle.db);
  const { db } = handle;
  // The groups a half-round runs, its fills inserted before the clock starts.
  const prepare = async (n: number) => {
    const made = Array.from({ length: n }, newGroup);
    await insertFills(
      db,
      made.flatMap((m) => m.ids.map((id) => fillRow(id, ++seq))),
    );
    return made.map((m) => m.group);
  };
  const half = async (path: Path, groups: Group[]) => {
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    for (const g of groups) {
      await db.transaction().execute((trx) => path.record(trx, g));
      await db.transaction().execute((trx) => path.settle(trx, g));
    }
    const used = process.cpuUsage(cpu);
    return { ms: (performance.now() - t0) / groups.length, cpuUs: (used.user + used.system) / groups.length };
  };
  for (const p of paths) await half(p, await prepare(perHalf)); // warm-up
  const ms: number[][] = [[], []];
  const cpu: number[][] = [[], []];
  for (let r = 0; r < rounds; r++) {
    const wall = [0, 0];
    const us = [0, 0];
    for (const i of r % 2 === 0 ? [0, 1, 1, 0] : [1, 0, 0, 1]) {
      const got = await half(paths[i]!, await prepare(perHalf));
      wall[i] = wall[i]! + got.ms / 2;
      us[i] = us[i]! + got.cpuUs / 2;
    }
    for (const i of [0, 1]) {
      ms[i]!.push(wall[i]!);
      cpu[i]!.push(us[i]!);
    }
    console.log(
      `round ${r + 1} (load ${loadavg()[0]!.toFixed(1)}): ${paths.map((p, i) => `${p.name} ${wall[i]!.toFixed(2)} ms, ${us[i]!.toFixed(0)} µs CPU`).join('; ')} a group`,
    );
  }
  for (const [i, p] of paths.entries())
    console.log(
      `${p.name}: median ${median(ms[i]!).toFixed(2)} ms a group (${perGroup} fills, 2 batches), ${median(cpu[i]!).toFixed(0)} µs CPU`,
    );
  console.log(
    `this / base, wall: ${(median(ms[1]!) / median(ms[0]!)).toFixed(2)}×, per round ${ms[1]!.map((m, r) => (m / ms[0]![r]!).toFixed(2)).join(' ')}`,
  );
  console.log(`deadlocks: ${await database.deadlocks()}`);
} finally {
  await handle.close();
  await database.drop();
}
