/**
 * The `cursor` of GET /v2/markets and /v2/markets/search: an opaque token naming the last market
 * of a page, so that the next page seeks to it instead of stepping over every earlier row as an
 * offset does (a page at offset 50,000 of 100k markets costs the 50,000 rows before it). Base64url
 * of a small JSON array: `["t", createdAt, id]` for pages ordered by creation time, `["r", rowid]`
 * for SQLite search (ordered by its full-text rowid). Anything else is a 400, never a 500.
 */
import type { MarketPosition } from '../../../db/repositories/family-a-markets.repository.js';
import { DomainError } from '../../domain/errors.js';

const MAX_CURSOR_LENGTH = 200;

export function encodeCursor(position: MarketPosition): string {
  const parts = 'rowid' in position ? ['r', position.rowid] : ['t', position.createdAt, position.id];
  return Buffer.from(JSON.stringify(parts), 'utf8').toString('base64url');
}

function invalid(): DomainError {
  return new DomainError(
    'invalid',
    'INVALID_CURSOR',
    'cursor is not one this API returned (use nextCursor from a previous page, unchanged)',
  );
}

/** The position a cursor names; `byRowid` says which kind this listing orders by. */
export function decodeCursor(cursor: string, byRowid: boolean): MarketPosition {
  if (cursor.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalid();
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!Array.isArray(parts)) throw invalid();
  if (byRowid) {
    const [kind, rowid] = parts as unknown[];
    if (parts.length !== 2 || kind !== 'r' || typeof rowid !== 'number' || !Number.isSafeInteger(rowid) || rowid < 0) throw invalid();
    return { rowid };
  }
  const [kind, createdAt, id] = parts as unknown[];
  if (
    parts.length !== 3 ||
    kind !== 't' ||
    typeof createdAt !== 'string' ||
    typeof id !== 'string' ||
    createdAt.length > 64 ||
    id.length > 64
  )
    throw invalid();
  return { createdAt, id };
}
