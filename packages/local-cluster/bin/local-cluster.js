#!/usr/bin/env node
// The `local-cluster` command: runs the compiled CLI (built by `npm run build` at the repository
// root, which `npm ci` runs through its `prepare` script).
import { runCli } from '../dist/cli.js';

await runCli(process.argv.slice(2));
