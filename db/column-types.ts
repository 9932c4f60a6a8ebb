/** Kysely column types shared by the table declarations (db/schema.ts, db/schema-clob.ts). */
import type { ColumnType } from 'kysely';

/** An integer that fits a JS number (counts, flags 0/1, prices in bps). */
export type Int = ColumnType<number, number, number>;

/** Money and on-chain u64 values: read as bigint, written as bigint or a safe number. */
export type BigCol = ColumnType<bigint, bigint | number, bigint | number>;
