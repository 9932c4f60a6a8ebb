/**
 * Row value conversions shared by repositories. SQLite hands back bigint for every integer and
 * 0/1 for booleans; PostgreSQL hands back bigint for int8, number for int4 and real booleans.
 */
export function num(value: number | bigint | string): number {
  return typeof value === 'number' ? value : Number(value);
}

export function big(value: number | bigint | string): bigint {
  return typeof value === 'bigint' ? value : BigInt(value);
}

export function bool(value: boolean | number | bigint): boolean {
  return typeof value === 'boolean' ? value : Number(value) !== 0;
}

/** Booleans are stored as 0/1 integers so the DDL is the same on both dialects. */
export function flag(value: boolean): number {
  return value ? 1 : 0;
}

export function json<T>(value: string | null | undefined, fallback: T): T {
  if (value === null || value === undefined || value === '') return fallback;
  return JSON.parse(value) as T;
}
