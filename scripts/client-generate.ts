/**
 * `npm run client:generate`: writes @pmx/client's checked-in OpenAPI document and the types made
 * of it (scripts/client-openapi.ts) from a running daemon: API_URL when set, else a daemon started
 * here (`node src/main.ts` in a temporary DATA_DIR, every role, its embedded Redis and cluster)
 * and stopped again. The real process, not a partial app: the document lists every route exactly
 * as the daemon registers them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReadyDaemon, type DaemonProcess } from '../test/daemon/daemon-process.js';
import { documentText, fetchDocument, OPENAPI_JSON, OPENAPI_TYPES, typesText } from './client-openapi.js';

let daemon: DaemonProcess | undefined;
let baseUrl = process.env.API_URL;
if (!baseUrl) {
  process.stderr.write('starting a daemon for its /openapi.json (about 15 s)…\n');
  daemon = await startReadyDaemon(
    fs.mkdtempSync(path.join(os.tmpdir(), 'pmx-client-generate-')),
    { LOG_LEVEL: 'warn' },
    '/health',
    120_000,
  );
  baseUrl = daemon.url;
}
try {
  const json = documentText(await fetchDocument(baseUrl));
  const types = await typesText(json);
  fs.mkdirSync(path.dirname(OPENAPI_TYPES), { recursive: true });
  fs.writeFileSync(OPENAPI_JSON, json);
  fs.writeFileSync(OPENAPI_TYPES, types);
  process.stderr.write(`wrote ${OPENAPI_JSON} (${json.length} bytes) and ${OPENAPI_TYPES} (${types.length} bytes)\n`);
} finally {
  if (daemon) {
    daemon.child.kill('SIGTERM');
    await daemon.exited;
    fs.rmSync(daemon.dataDir, { recursive: true, force: true });
  }
}
