import { existsSync, readFileSync } from 'node:fs';

/**
 * The daemon's version, from the nearest package.json above this file (read once): two levels up
 * when run from source with tsx, three from the compiled `dist/` tree.
 */
function readVersion(): string {
  for (const up of ['../../package.json', '../../../package.json']) {
    const url = new URL(up, import.meta.url);
    if (existsSync(url)) return (JSON.parse(readFileSync(url, 'utf8')) as { version: string }).version;
  }
  return '0.0.0';
}

export const VERSION: string = readVersion();
