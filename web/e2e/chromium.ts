import * as fs from 'node:fs';

/**
 * The browser the console's tests and benchmark drive: Debian's chromium package (Playwright cannot
 * download one on these machines; .ci/run installs the package when it is missing), or CHROMIUM_PATH.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Headless flags that work on the CI machines (no sandbox, no GPU, nothing that phones home). */
export const CHROMIUM_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Stops the run before any test when there is no browser: a missing browser is a failure, never a skip. */
export function assertChromiumInstalled(): string {
  let executable: boolean;
  try {
    fs.accessSync(CHROMIUM_PATH, fs.constants.X_OK);
    executable = fs.statSync(CHROMIUM_PATH).isFile();
  } catch {
    executable = false;
  }
  if (!executable) {
    throw new Error(`No Chromium at ${CHROMIUM_PATH}: install Debian's chromium (apt-get install chromium) or set CHROMIUM_PATH`);
  }
  return CHROMIUM_PATH;
}
