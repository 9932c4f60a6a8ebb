/** Kysely table types of the operator console: its samples, the audit log, named operators and their sessions (migrations 0016, 0018, 0022). */
import type { ColumnType } from 'kysely';

export type OperatorRole = 'viewer' | 'operator' | 'admin';

/** A named operator (migration 0022). */
export interface OperatorsTable {
  name: string;
  role: OperatorRole;
  /** `scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>` of the secret. */
  secret_hash: string;
  created_at: string;
  revoked_at: string | null;
}

/** A console session (migration 0022); the browser holds the id, this row its SHA-256. */
export interface OperatorSessionsTable {
  id_hash: string;
  operator: string;
  role: OperatorRole;
  csrf: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  revoked_at: string | null;
}

/** The console's samples: one row per node and minute (migration 0018). */
export interface ConsoleSamplesTable {
  node_id: string;
  /** The minute's start, ISO 8601 (`2026-11-26T10:41:00.000Z`). */
  minute: string;
  http_requests: ColumnType<number, number | undefined, number>;
  http_4xx: ColumnType<number, number | undefined, number>;
  http_5xx: ColumnType<number, number | undefined, number>;
  orders: ColumnType<number, number | undefined, number>;
  fills_matched: ColumnType<number, number | undefined, number>;
  fills_settled: ColumnType<number, number | undefined, number>;
  settle_p50_ms: number | null;
  settle_p99_ms: number | null;
  queue_depth: ColumnType<number, number | undefined, number>;
}

/** One state-changing admin request (migration 0016). */
export interface OperatorAuditTable {
  id: string;
  at: string;
  /** `<METHOD> <route>`, e.g. `POST /v2/admin/clob/markets/:id/pause`. */
  action: string;
  /** The route's parameters (`id=3`), or empty. */
  target: string;
  /** The request body as JSON, cut at 2,000 characters. */
  params: string;
  /** Who: the credential's fingerprint and kind (`admin-token:1a2b3c4d5e6f via bearer`). */
  caller: string;
  address: string;
  /** `pending` until the request answered, then `ok` or the error code. */
  result: string;
  status: number | null;
}
