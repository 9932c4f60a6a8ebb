/**
 * The readiness probe behind GET /ready: the database answers, Redis answers, the queue pipeline
 * ran a heartbeat recently (a worker took a job and wrote to the database), and the chain
 * answers when this process talks to one.
 */
import { sql, type Kysely } from 'kysely';
import type { Redis } from 'ioredis';
import { newestPipelineBeatAt } from '../../db/repositories/daemon-nodes.repository.js';
import type { Database } from '../../db/schema.js';

export interface CheckResult {
  ok: boolean;
  detail?: string;
  latencyMs?: number;
}

export type ReadinessProbe = () => Promise<Record<string, CheckResult>>;

export interface ReadinessDeps {
  db: Kysely<Database>;
  redis: Redis;
  /** Max age of the newest heartbeat before workers count as down; undefined = no workers expected. */
  heartbeatMaxAgeMs?: number;
  chainSlot?: () => Promise<number>;
}

async function timed(fn: () => Promise<string | undefined>): Promise<CheckResult> {
  const started = performance.now();
  try {
    const detail = await Promise.race([
      fn(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('timed out after 2000 ms')), 2_000).unref()),
    ]);
    return { ok: true, latencyMs: Math.round(performance.now() - started), ...(detail ? { detail } : {}) };
  } catch (error) {
    return { ok: false, detail: (error as Error).message, latencyMs: Math.round(performance.now() - started) };
  }
}

export function createReadinessProbe(deps: ReadinessDeps): ReadinessProbe {
  return async () => {
    const checks: Record<string, CheckResult> = {
      database: await timed(async () => {
        await sql`select 1`.execute(deps.db);
        return undefined;
      }),
      redis: await timed(async () => {
        await deps.redis.ping();
        return undefined;
      }),
    };
    if (deps.heartbeatMaxAgeMs !== undefined) {
      const maxAge = deps.heartbeatMaxAgeMs;
      checks.workers = await timed(async () => {
        const newest = await newestPipelineBeatAt(deps.db);
        if (!newest) throw new Error('no heartbeat processed yet');
        const age = Date.now() - Date.parse(newest);
        if (age > maxAge) throw new Error(`newest heartbeat is ${Math.round(age / 1000)} s old`);
        return `newest heartbeat ${Math.round(age)} ms ago`;
      });
    }
    if (deps.chainSlot) {
      const slot = deps.chainSlot;
      checks.chain = await timed(async () => `slot ${await slot()}`);
    }
    return checks;
  };
}
