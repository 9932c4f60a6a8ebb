/**
 * What one precompiled read costs on the read-only connection (db/read-answers.ts): the statement
 * alone (the path before), `pragma data_version` alone, a kept answer (hit) and a read that is
 * kept (miss: the version, the statement, the filing). The version is told by the wal-index
 * header (wal-index-watch.ts), the pragma shown for comparison. `npx tsx --conditions=pmx-source bench/read-answers-cost.ts`
 */
import path from 'node:path';
import { migrateToLatest } from '../db/migrator.js';
import { openSqlite } from '../db/database.js';
import { readAnswer } from '../db/read-answers.js';
import { readConnectionOf, walIndexWatchOf } from '../db/read-connection.js';
import { upsertChainMarket } from '../db/repositories/chain-markets.repository.js';
import { tempDir } from '../test/helpers/databases.js';

const h = openSqlite(path.join(tempDir('pmx-micro-'), 'micro.db'));
await migrateToLatest(h.db);
const N = 2_000;
for (let i = 1n; i <= BigInt(N); i++)
  await upsertChainMarket(h.db, {
    marketId: i,
    address: `m${i}`,
    creator: 'c',
    status: 'active',
    mode: 'standard',
    yesMint: `y${i}`,
    noMint: `n${i}`,
    data: Buffer.alloc(400, Number(i % 200n)),
    slot: 1n,
  });
const reader = readConnectionOf(h.db)!;
const statement = reader.prepare('select * from "chain_markets" where "market_id" = ?');
const version = reader.prepare('pragma data_version').pluck();
const watch = walIndexWatchOf(reader)!;
const usPer = (label: string, n: number, f: (i: number) => void) => {
  for (let i = 0; i < 2000; i++) f(i);
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) f(i);
  console.log(`${label.padEnd(34)} ${(Number(process.hrtime.bigint() - t) / 1000 / n).toFixed(2)} µs`);
};
for (let round = 0; round < 3; round++) {
  usPer('statement alone (before)', 50_000, (i) => statement.all([BigInt((i % N) + 1)]));
  usPer('pragma data_version alone', 50_000, () => version.get());
  usPer('wal-index header alone (used now)', 50_000, () => watch.moved());
  usPer('kept answer (hit)', 50_000, (i) => readAnswer(reader, statement, statement, [BigInt((i % 50) + 1)]));
  let q = {};
  usPer('read and kept (miss)', 50_000, (i) => {
    if (i % N === 0) q = {}; // a fresh query object: every key new
    readAnswer(reader, q, statement, [BigInt((i % N) + 1)]);
  });
}
await h.close();
