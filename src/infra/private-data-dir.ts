/**
 * Everything under DATA_DIR is private to the daemon's user: the database and the ledger hold
 * users' positions and the platform's state, the key files hold the platform's money. New files
 * are created 0600 and directories 0700 (umask 077, inherited by the private redis-server), and a
 * data directory left by an older version is tightened at start.
 */
import fs from 'node:fs';
import path from 'node:path';

export function makeDataDirPrivate(dataDir: string): void {
  process.umask(0o077);
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  tighten(dataDir);
}

function tighten(p: string): void {
  const stat = fs.lstatSync(p, { throwIfNoEntry: false });
  if (!stat || stat.isSymbolicLink()) return; // never follow a link out of DATA_DIR
  if (stat.isDirectory()) {
    if ((stat.mode & 0o077) !== 0) fs.chmodSync(p, 0o700);
    for (const entry of fs.readdirSync(p)) tighten(path.join(p, entry));
  } else if (stat.isFile() && (stat.mode & 0o077) !== 0) {
    fs.chmodSync(p, stat.mode & 0o700);
  }
}
