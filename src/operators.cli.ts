/**
 * `npm run operator -- add <name> --role viewer|operator|admin`, `… revoke <name>`, `… list`:
 * named operators of the console and the admin API, in the configured database (DATABASE_URL, or
 * DATA_DIR's SQLite). `add` prints the new secret as its last word, once: only its hash is kept.
 */
import { loadConfig } from '../config/config.js';
import { openDatabase } from '../db/database.js';
import { migrateToLatest } from '../db/migrator.js';
import { isDomainError } from './domain/errors.js';
import { addOperator, isRole, operatorList, revokeOperatorByName } from './services/operators/operators.service.js';

const USAGE = 'usage: npm run operator -- add <name> --role viewer|operator|admin | revoke <name> | list';

async function run(args: string[]): Promise<string> {
  const [command, name] = args;
  const config = loadConfig();
  const handle = openDatabase(config.databaseUrl, config.dataDir);
  try {
    await migrateToLatest(handle.db);
    if (command === 'list') {
      const rows = await operatorList(handle.db);
      return (
        rows.map((o) => `${o.name}\t${o.role}\t${o.revokedAt ? `revoked ${o.revokedAt}` : `since ${o.createdAt}`}`).join('\n') ||
        'no operators (the admin token logs in as "admin")'
      );
    }
    if (command === 'revoke' && name) {
      const { sessions } = await revokeOperatorByName(handle.db, name);
      return `revoked ${name} (${sessions} session(s) ended)`;
    }
    const role = args[args.indexOf('--role') + 1];
    if (command === 'add' && name && args.includes('--role') && isRole(role)) {
      const { secret } = await addOperator(handle.db, name, role);
      return `operator ${name} (${role}) added; log in with this secret, shown once: ${secret}`;
    }
    throw new Error(USAGE);
  } finally {
    await handle.close();
  }
}

try {
  process.stdout.write(`${await run(process.argv.slice(2))}\n`);
} catch (error) {
  console.error(isDomainError(error) ? error.message : (error as Error).message);
  process.exitCode = 2;
}
