/**
 * A feature is one capability of the daemon (a family of the API, the chain's dev endpoints…):
 * the processors of its jobs, its transaction builders, its routes and its schedules. The
 * composition root (src/daemon.ts) builds every feature from one shared context and wires the
 * parts into the roles this process runs. A feature module is a list of wiring: what happens when
 * something changes is a service's to decide, and its numbers are configuration or a service's
 * named constants (docs/architecture.md).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Redis } from 'ioredis';
import type { ConnectionRole } from '../../jobs/redis-connection.js';
import type { Config, Role } from '../../config/config.js';
import type { Dialect } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { ProcessorMap } from '../../jobs/processor.js';
import type { JobQueues } from '../../jobs/queues.js';
import type { ChainRuntime } from '../chain/chain-runtime.js';
import type { TxBuilderCatalog, TxBuildPort } from '../services/tx-build/tx-build.port.js';
import type { OutboundBuilders } from '../services/outbound/outbound.types.js';
import type { DaemonMetrics } from '../infra/metrics.js';
import type { ReadinessCheck } from '../services/readiness.service.js';

export interface FeatureContext {
  config: Config;
  log: Logger;
  db: Kysely<Database>;
  dialect: Dialect;
  queues: JobQueues;
  chain: ChainRuntime;
  /** Present in processes with the api role. */
  txBuild?: TxBuildPort;
  adminToken: string;
  /** Opens a Redis connection closed with the daemon (event bus, leases). */
  redis(role: ConnectionRole, name: string): Redis;
  /** This process's identity (host, port, roles, pid, random): unique per running daemon. */
  instanceId: string;
  /** The process's Prometheus metrics. */
  metrics: DaemonMetrics;
  /** Aborted as the daemon starts to stop (before any part closes): long waits end at once. */
  stopping?: AbortSignal;
}

export interface Feature {
  name: string;
  processors?: ProcessorMap;
  /** This feature's part of the typed builder catalog (src/services/tx-build/tx-build.port.ts). */
  txBuilders?: Partial<TxBuilderCatalog>;
  /** Builders of persisted platform transactions, by purpose (see src/features/outbound.feature.ts). */
  outboundBuilders?: OutboundBuilders;
  routes?: FastifyPluginAsync[];
  /** Declares repeatable jobs (idempotent); runs in processes with the worker role. */
  schedules?(): Promise<void>;
  /** Starts long-lived listeners (e.g. chain notifications); runs in the indexer role. */
  start?(): Promise<void>;
  stop?(): Promise<void>;
  /** Releases what the feature holds in every role (queue clients); after HTTP and workers stop. */
  close?(): Promise<void>;
  /** Long-lived parts of other roles (e.g. the orderbook's matcher), started when this process has the role. */
  roleServices?: Partial<Record<Role, RoleService>>;
  /** Checks /ready adds, by name (e.g. the orderbook's matcher coverage). */
  readiness?: Record<string, ReadinessCheck>;
}

export interface RoleService {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export type FeatureFactory = (ctx: FeatureContext) => Feature | Promise<Feature>;
