import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The binary of the installed `@github/copilot` package: its platform package ships a native
 * executable; without one, the package's node loader picks it.
 */
export function defaultCliCommand(): { command: string; args: string[] } {
  const platformPackage = `@github/copilot-${process.platform}-${process.arch}`;
  try {
    // The platform package exports its executable as its main entry.
    const binary = require.resolve(platformPackage);
    if (fs.existsSync(binary)) return { command: binary, args: [] };
  } catch {
    // fall through to the loader
  }
  try {
    const loader = path.join(path.dirname(require.resolve('@github/copilot/package.json')), 'npm-loader.js');
    return { command: process.execPath, args: [loader] };
  } catch {
    throw new Error('The @github/copilot package is not installed; run npm ci or set COPILOT_CLI_PATH');
  }
}
