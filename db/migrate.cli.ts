/** `npm run db:migrate`: applies pending migrations to the configured database and exits. */
import { loadConfig } from '../config/config.js';
import { openDatabase } from './database.js';
import { migrateToLatest } from './migrator.js';

const config = loadConfig();
const handle = openDatabase(config.databaseUrl, config.dataDir);
try {
  const applied = await migrateToLatest(handle.db);
  console.log(applied.length === 0 ? `${handle.location}: up to date` : `${handle.location}: applied ${applied.join(', ')}`);
} finally {
  await handle.close();
}
