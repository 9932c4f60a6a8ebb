/**
 * Secrets (the admin token, keypairs) live in files of mode 0600. A file that other users can
 * read is refused rather than silently used.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function assertPrivateFile(file: string): void {
  const mode = fs.statSync(file).mode & 0o777;
  if ((mode & 0o077) !== 0) {
    throw new Error(`${file} has mode ${mode.toString(8)}; secrets must be 0600 (chmod 600 ${file})`);
  }
}

/** Writes `content` to a new file with mode 0600, atomically (write to temp, then rename). */
export function writePrivateFile(file: string, content: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, content, { mode: 0o600 });
  fs.renameSync(tmp, file);
}

/**
 * Returns the admin token: the configured one, or the one stored in DATA_DIR/admin-token,
 * generated on first start. Never log the token; log `file` instead.
 */
export function resolveAdminToken(configured: string | undefined, dataDir: string): { token: string; file?: string } {
  if (configured !== undefined) return { token: configured };
  const file = path.join(dataDir, 'admin-token');
  if (!fs.existsSync(file)) writePrivateFile(file, `${randomBytes(24).toString('base64url')}\n`);
  assertPrivateFile(file);
  return { token: fs.readFileSync(file, 'utf8').trim(), file };
}
