/**
 * Whether any connection has committed to a WAL-mode SQLite file since the last look, told by one
 * read of the file's wal-index header (the first 96 bytes of `<file>-shm`) instead of
 * `pragma data_version` (issue 31: the pragma, a read transaction with its two lock calls, was the
 * largest cost of a kept answer; one positioned read costs about half).
 *
 * Why it is exact: in WAL mode `data_version` moves when a connection, starting a read, finds the
 * wal-index header changed (SQLite's walIndexTryHdr: memcmp of the header it last used with the
 * shared one). Every commit, by any connection of any process, rewrites that header as its last
 * step (a new change counter, frame count and checksums), copy 2 first, then copy 1. So bytes
 * equal to the last look's mean no commit has completed since; bytes caught mid-write differ from
 * the old header and count as a change (a spurious miss, never a stale hit). The shm file is
 * memory every connection maps shared, so a read() sees a writer's stores at once.

 * Its limits, each checked once when the watch opens (else the caller keeps using the pragma):
 * the database is in WAL mode (it cannot leave it while our reader holds its shared lock) and the
 * header is an initialised wal-index of the version SQLite writes.
 *
 * Closing our descriptor of the shm file would drop every POSIX lock this process holds on it,
 * SQLite's included (fcntl locks belong to the process, not the descriptor). So it is closed only
 * once SQLite has removed the file, which it does when the last connection to it closes; otherwise
 * it stays open for the life of the process.
 */
import fs from 'node:fs';
import type SQLite from 'better-sqlite3';

/** Both copies of the wal-index header (WalIndexHdr, 48 bytes each). */
const HEADER_BYTES = 96;
/** WALINDEX_MAX_VERSION, the wal-index format SQLite 3.7.0 and later write. */
const WALINDEX_VERSION = 3007000;

export interface WalIndexWatch {
  /** True when the header differs from the one the previous call saw (the first call: true). */
  moved(): boolean;
  /** Once this handle's connections are closed: closes the descriptor if SQLite removed the file. */
  release(): void;
}

/** Descriptors kept open because the shm file outlived our connections (see above). */
const kept: number[] = [];

export function openWalIndexWatch(reader: SQLite.Database, file: string): WalIndexWatch | undefined {
  if (String(reader.pragma('journal_mode', { simple: true })).toLowerCase() !== 'wal') return undefined;
  let fd: number;
  try {
    fd = fs.openSync(`${file}-shm`, 'r');
  } catch {
    return undefined;
  }
  let now = Buffer.alloc(HEADER_BYTES);
  let seen = Buffer.alloc(HEADER_BYTES);
  const read = () => fs.readSync(fd, now, 0, HEADER_BYTES, 0) === HEADER_BYTES;
  // Native byte order (little-endian on every platform the daemon runs on): iVersion, then isInit at byte 12.
  if (!read() || now.readUInt32LE(0) !== WALINDEX_VERSION || now[12] !== 1) {
    kept.push(fd); // our connections have the file open: closing this would drop their locks
    return undefined;
  }
  let first = true;
  return {
    moved() {
      if (!read()) return true; // a short read: no header to trust, so a change
      if (!first && now.equals(seen)) return false;
      first = false;
      [seen, now] = [now, seen];
      return true;
    },
    release() {
      if (fs.fstatSync(fd).nlink === 0) fs.closeSync(fd);
      else kept.push(fd);
    },
  };
}
