// `npm run operator`: add prints the secret as its last word (and it logs in), list shows the
// operators, revoke ends them, bad arguments exit 2 with the usage.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/database.js';
import { OperatorDirectory } from '../../src/services/operators/operators.service.js';
import { tempDir } from '../helpers/databases.js';

const cli = fileURLToPath(new URL('../../src/operators.cli.ts', import.meta.url));
const tsx = fileURLToPath(new URL('../../node_modules/.bin/tsx', import.meta.url));

function run(dataDir: string, ...args: string[]): Promise<{ code: number; out: string; err: string }> {
  return new Promise((resolve) => {
    execFile(
      tsx,
      ['--conditions=pmx-source', cli, ...args],
      { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } },
      (error, out, err) => resolve({ code: error ? Number(error.code ?? 1) : 0, out: out.trim(), err: err.trim() }),
    );
  });
}

describe('npm run operator', () => {
  it('adds (the secret last, once), lists and revokes operators', async () => {
    const dir = tempDir('pmx-operator-cli-');
    const added = await run(dir, 'add', 'bob', '--role', 'operator');
    expect(added.code).toBe(0);
    const secret = added.out.split(/\s+/).at(-1)!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const handle = openDatabase(undefined, dir);
    try {
      const directory = new OperatorDirectory(handle.db, 'some-admin-token-0123456789');
      expect(await directory.authenticate('bob', secret)).toEqual({ name: 'bob', role: 'operator' });
      expect(JSON.stringify(await handle.db.selectFrom('operators').selectAll().execute())).not.toContain(secret); // a hash only

      expect((await run(dir, 'list')).out).toMatch(/^bob\toperator\tsince /);
      expect((await run(dir, 'revoke', 'bob')).out).toBe('revoked bob (0 session(s) ended)');
      expect(await directory.authenticate('bob', secret)).toBeUndefined();
      expect((await run(dir, 'add', 'bob', '--role', 'viewer')).code).toBe(2); // names are not reused
      const bad = await run(dir, 'add', 'eve', '--role', 'root');
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('usage: npm run operator');
    } finally {
      await handle.close();
    }
  }, 60_000);
});
