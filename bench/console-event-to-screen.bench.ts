/**
 * Event to screen: from an event committed to its line shown on the run page in Chromium, while a
 * 16-session load runs (issue 29: p50 < 100 ms, p99 < 250 ms).
 *
 *   npm run bench:console        (builds the console, then runs the console benches, this one last)
 *
 * The service runs in a process of its own (bench/console-event-service.ts: the production app on a
 * fresh SQLite file serving web/dist) with a lead run and 16 child runs. Debian Chromium opens the lead's
 * page (its subtree: all 17 runs). Then, for LOAD_SECONDS, each child's session records tool calls,
 * messages and usage at EVENTS_PER_SESSION_PER_SECOND (25: 400 a second together), appended by the
 * service's own store, and every 100 ms the lead says `mark-<n>`. A mark's commit time is the moment its
 * append resolved in the writer (after the commit and its WAL sync), by the service's clock (Date.now);
 * the moment it is shown is when a MutationObserver in the page first sees a node with its text
 * (performance.timeOrigin + performance.now(), the same machine clock). Both are epoch ms.
 *
 * BENCH_SERVICE_NODE_ARGS passes flags to the service's process (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p");
 * BENCH_TRACE=<file> writes a Chromium performance trace of the load to that file.
 */
import { type Browser, chromium } from '@playwright/test';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { assertChromiumInstalled, CHROMIUM_ARGS } from '../web/e2e/chromium';
import { percentile } from './figures';

const CONSOLE_DIR = process.env.SWITCHBOARD_CONSOLE_DIR || path.join(__dirname, '..', 'web', 'dist');
const SESSIONS = Number(process.env.SESSIONS ?? 16);
const EVENTS_PER_SESSION_PER_SECOND = Number(process.env.EVENTS_PER_SESSION_PER_SECOND ?? 25);
const LOAD_SECONDS = Number(process.env.LOAD_SECONDS ?? 15);
const TARGETS = { p50Ms: 100, p99Ms: 250 };

/** Records when the page first shows each `mark-<n>`: epoch ms of the mutation that added its text. */
const PROBE = `
(() => {
  const shown = {};
  const arrived = {};
  window.__marks = shown;
  window.__arrived = arrived;
  // When each mark's message reached the page (before the client's own listener): splits the path in two.
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener('message', (event) => {
        const at = performance.timeOrigin + performance.now();
        if (typeof event.data !== 'string' || event.data.indexOf('mark-') < 0) return;
        for (const m of event.data.matchAll(/mark-(\\d+) from the lead/g)) if (arrived[m[1]] === undefined) arrived[m[1]] = at;
      });
    }
  };
  const scan = (text, at) => {
    if (!text || text.indexOf('mark-') < 0) return;
    for (const m of text.matchAll(/mark-(\\d+) from the lead/g)) if (shown[m[1]] === undefined) shown[m[1]] = at;
  };
  new MutationObserver((records) => {
    const at = performance.timeOrigin + performance.now();
    for (const record of records) {
      if (record.type === 'characterData') scan(record.target.data, at);
      else for (const node of record.addedNodes) scan(node.textContent, at);
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();
`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const executablePath = assertChromiumInstalled();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-event-to-screen-'));
  const child = spawn(
    process.execPath,
    [
      ...(process.env.BENCH_SERVICE_NODE_ARGS ?? '').split(' ').filter(Boolean),
      '-r',
      '@swc-node/register',
      path.join(__dirname, 'console-event-service.ts'),
    ],
    {
      cwd: path.resolve(__dirname, '..'),
      env: {
        ...process.env,
        SWITCHBOARD_DB: path.join(dir, 'switchboard.db'),
        SWITCHBOARD_CONSOLE_DIR: CONSOLE_DIR,
        SWITCHBOARD_API_TOKEN: '',
        LOG_LEVEL: 'silent',
        SESSIONS: String(SESSIONS),
        EVENTS_PER_SESSION_PER_SECOND: String(EVENTS_PER_SESSION_PER_SECOND),
        LOAD_SECONDS: String(LOAD_SECONDS),
      },
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const committed = new Map<string, number>();
  let done: { events: number; seconds: number } | undefined;
  let out = '';
  const ready = new Promise<{ port: number; leadRunId: string }>((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        const [word, a, b] = line.split(' ');
        if (word === 'READY') resolve({ port: Number(a), leadRunId: b });
        else if (word === 'MARK') committed.set(a, Number(b));
        else if (word === 'DONE') done = { events: Number(a), seconds: Number(b) };
      }
    });
    child.once('exit', (code) => reject(new Error(`console-event-service exited with code ${code} before it was ready`)));
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let browser: Browser | undefined;
  try {
    const { port, leadRunId } = await ready;
    browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true });
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await page.addInitScript({ content: PROBE });
    await page.goto(`http://127.0.0.1:${port}/runs/${leadRunId}`);
    await page.getByText(new RegExp(`^${SESSIONS + 1} runs,`)).waitFor({ timeout: 60_000 });
    await sleep(500); // the subscription's catch-up is over, the page is idle
    if (process.env.BENCH_TRACE) await browser.startTracing(page, { path: process.env.BENCH_TRACE, screenshots: false });
    child.stdin.write('go\n');
    while (!done) {
      if (child.exitCode !== null) throw new Error('console-event-service exited during the load');
      await sleep(100);
    }
    await sleep(2000); // late arrivals
    if (process.env.BENCH_TRACE) await browser.stopTracing();
    const shown = await page.evaluate<Record<string, number>>('window.__marks');
    const arrived = await page.evaluate<Record<string, number>>('window.__arrived');

    const latencies: number[] = [];
    const toPage: number[] = [];
    const inPage: number[] = [];
    const missing: string[] = [];
    for (const [n, at] of committed) {
      const seen = shown[n];
      if (seen === undefined) missing.push(n);
      else latencies.push(seen - at);
      if (arrived[n] !== undefined) toPage.push(arrived[n] - at);
      if (arrived[n] !== undefined && seen !== undefined) inPage.push(seen - arrived[n]);
    }
    const p50 = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const verdict = (value: number, target: number) => `(target < ${target} ms: ${value < target ? 'met' : 'MISSED'})`;
    const { events, seconds } = done;
    console.log(
      `\nEvent to screen: a lead run and ${SESSIONS} sessions below it, ${events} events in ${seconds.toFixed(1)} s (${(events / seconds).toFixed(0)}/s), ` +
        `service in its own process on SQLite, Chromium ${browser.version()} headless`,
    );
    console.log(`commit (the append resolved in the service) to the line in the run page's DOM, ${latencies.length} marks:`);
    console.log(`  p50 ${p50.toFixed(0)} ms ${verdict(p50, TARGETS.p50Ms)}`);
    console.log(`  p99 ${p99.toFixed(0)} ms ${verdict(p99, TARGETS.p99Ms)}`);
    const split = (values: number[]) => `p50 ${percentile(values, 50).toFixed(0)} ms, p99 ${percentile(values, 99).toFixed(0)} ms`;
    console.log(`  of which commit to the WebSocket message in the page: ${split(toPage)}; message to the line in the DOM: ${split(inPage)}`);
    console.log(
      `  min ${Math.min(...latencies).toFixed(0)} ms, worst ${Math.max(...latencies).toFixed(0)} ms${missing.length ? `; ${missing.length} never appeared (mark ${missing.join(', ')})` : ''}`,
    );
  } finally {
    await browser?.close();
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
