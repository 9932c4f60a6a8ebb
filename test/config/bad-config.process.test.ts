import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/databases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

function run(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--conditions=pmx-source', '--import', 'tsx', 'src/main.ts'], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    // A limit for a loaded machine (loading tsx and the config alone took seconds there), not a target.
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

describe('daemon with a bad configuration', () => {
  it('exits non-zero, names the bad key on stderr and creates nothing', async () => {
    const dataDir = path.join(tempDir(), 'data');
    const { code, stderr } = await run({ PORT: 'abc', ROLES: 'foo', DATA_DIR: dataDir, LOG_PRETTY: 'false' });
    expect(code).not.toBe(0);
    expect(code).not.toBeNull();
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('abc');
    expect(stderr).toContain('ROLES');
    expect(fs.existsSync(dataDir)).toBe(false);
  }, 90_000);
});
