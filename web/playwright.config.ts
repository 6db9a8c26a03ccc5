import { defineConfig } from '@playwright/test';
import * as path from 'node:path';
import { assertChromiumInstalled, CHROMIUM_ARGS } from './e2e/chromium';

// The console's browser tests (npm run test:console): the built bundle (web/dist) served by the real
// service on a real SQLite file, driven in Debian's Chromium. Checked here, at config load, so a
// missing browser fails the whole run with how to install one instead of failing (or skipping) each test:
// one line on stderr and exit code 1, not a stack trace through Playwright's config loader.
const executablePath = chromiumOrExit();

function chromiumOrExit(): string {
  try {
    return assertChromiumInstalled();
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n`);
    process.exit(1);
  }
}

export default defineConfig({
  testDir: path.join(__dirname, 'e2e'),
  outputDir: path.join(__dirname, 'test-results'),
  // Two workers on 2-core CI: a test spends most of its time waiting on the service, its CLI and the page,
  // so a second worker fills that wait. Each worker has its own service (port, SQLite file, temp folder) and
  // model server (fixtures.ts, worker-scoped); files, not tests, are spread over them, so a file's tests keep
  // their order on one service. A flaky test is a bug to fix, not to retry.
  workers: 2,
  fullyParallel: false,
  retries: 0,
  forbidOnly: true,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    browserName: 'chromium',
    headless: true,
    // Playwright gives each test's context a fresh profile (no cookies, storage or cache carried over).
    launchOptions: { executablePath, args: [...CHROMIUM_ARGS] },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
