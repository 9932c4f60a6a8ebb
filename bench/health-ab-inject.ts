/**
 * GET /health's CPU per request of two builds of buildApp in one process, by turns of a few
 * hundred injections each (light-my-request, no socket): the machine's other load falls on both
 * alike at millisecond grain, which separate processes measured seconds apart do not get.
 * light-my-request's own work is the same for both, so only the difference is meaningful.
 *
 *   npx tsx --conditions=pmx-source bench/health-ab-inject.ts <other checkout> [turns=200] [per=300]
 */
import path from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import type { FastifyInstance } from 'fastify';

const [other, turns = '200', per = '300'] = process.argv.slice(2);
if (!other) throw new Error('usage: health-ab-inject.ts <other checkout> [turns] [per]');
const ADMIN_TOKEN = 'bench-admin-token-0123456789';

async function build(root: string): Promise<FastifyInstance> {
  const imp = (p: string) => import(path.resolve(root, p));
  const [{ openSqlite }, { migrateToLatest }, { buildApp }, { createMetrics }, { createAuditLog }, access, { tempDir }] = await Promise.all(
    [
      imp('db/database.ts'),
      imp('db/migrator.ts'),
      imp('src/api/app.ts'),
      imp('src/infra/metrics.ts'),
      imp('src/services/operator-audit.service.ts'),
      imp('src/services/operators/operator-access.ts'),
      imp('test/helpers/databases.ts'),
    ],
  );
  const db = openSqlite(path.join(tempDir('pmx-health-ab-'), 'api.db'));
  await migrateToLatest(db.db);
  const app: FastifyInstance = await buildApp({
    log: pino({ level: 'warn' }, pino.destination('/dev/null')),
    version: 'bench',
    redis: new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'),
    rateLimit: { readPerMinute: 1_000_000_000, writePerMinute: 1_000_000_000, nameSpace: `pmxbench:${process.pid}:${root.length}` },
    metrics: createMetrics(),
    adminToken: ADMIN_TOKEN,
    dashboardQueues: [],
    readiness: async () => ({}),
    routes: [],
    maxConnectionsPerClient: 0,
    audit: createAuditLog(db.db),
    operators: access.createOperatorAccess(db.db, ADMIN_TOKEN, access.DEFAULT_SESSION_SETTINGS),
  });
  await app.ready();
  return app;
}

function injectOnce(app: FastifyInstance): Promise<void> {
  return new Promise((resolve, reject) =>
    app.inject({ method: 'GET', url: '/health', remoteAddress: '127.0.0.1' }, (err, res) =>
      err ? reject(err) : res!.statusCode === 200 ? resolve() : reject(new Error(`status ${res!.statusCode}`)),
    ),
  );
}

async function turn(app: FastifyInstance, n: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) await injectOnce(app);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / n;
}

const sides = [
  { name: 'this', app: await build(path.resolve(import.meta.dirname, '..')), us: [] as number[] },
  { name: 'other', app: await build(path.resolve(other)), us: [] as number[] },
];
for (const side of sides) await turn(side.app, 3_000); // warm-up
for (let t = 0; t < Number(turns); t++) {
  const order = t % 2 === 0 ? sides : [...sides].reverse();
  for (const side of order) side.us.push(await turn(side.app, Number(per)));
}
const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * f)]!;
for (const side of sides)
  console.log(
    `${side.name.padEnd(6)} µs/request p10 ${q(side.us, 0.1).toFixed(1)}, p25 ${q(side.us, 0.25).toFixed(1)}, median ${q(side.us, 0.5).toFixed(1)}`,
  );
const diffs = sides[0]!.us.map((us, i) => us - sides[1]!.us[i]!);
console.log(
  `this − other per turn: p25 ${q(diffs, 0.25).toFixed(2)}, median ${q(diffs, 0.5).toFixed(2)}, p75 ${q(diffs, 0.75).toFixed(2)} µs`,
);
process.exit(0);
