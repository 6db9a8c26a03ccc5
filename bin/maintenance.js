#!/usr/bin/env node
// `npm run agents:import|agents:export|projections:rebuild|store:copy-to-postgres|keys:create-admin -- ...`: a maintenance command from the
// TypeScript sources in a development checkout, or from the compiled dist/ where the sources or
// their dev-only loader are absent (the Docker image: `docker compose exec switchboard npm run ...`).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ENTRY_POINTS = {
  'agents:import': 'agents-import',
  'agents:export': 'agents-export',
  'projections:rebuild': 'rebuild-projection',
  'store:copy-to-postgres': 'store-copy-to-postgres',
  'keys:create-admin': 'keys-create-admin',
};

const root = path.resolve(__dirname, '..');
const [command, ...args] = process.argv.slice(2);
const entry = ENTRY_POINTS[command];
if (!entry) {
  process.stderr.write(`usage: node bin/maintenance.js <${Object.keys(ENTRY_POINTS).join('|')}> [arguments]\n`);
  process.exit(2);
}

function loaderOfSources() {
  try {
    return require.resolve('@swc-node/register', { paths: [root] });
  } catch {
    return undefined;
  }
}

const source = path.join(root, 'src', 'cli', `${entry}.cli.ts`);
const compiled = path.join(root, 'dist', 'cli', `${entry}.cli.js`);
const loader = fs.existsSync(source) ? loaderOfSources() : undefined;
if (!loader && !fs.existsSync(compiled)) {
  process.stderr.write(`${command}: ${path.relative(root, compiled)} is missing; run npm run build first\n`);
  process.exit(1);
}
// The command runs in this process: its exit code and signals are the command's own.
process.argv = [process.argv[0], loader ? source : compiled, ...args];
if (loader) {
  // The loader reads tsconfig.json from the working folder; the command may run from any folder.
  process.env.SWC_NODE_PROJECT ??= path.join(root, 'tsconfig.json');
  require(loader);
}
require(loader ? source : compiled);
