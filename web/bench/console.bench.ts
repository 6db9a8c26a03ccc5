/**
 * The console's agent library with 1,000 agents in headless Chromium (the browser the tests use).
 *
 *   npm run bench:console        (builds the console, then runs this)
 *
 * The real service is started on a fresh SQLite file serving web/dist; 1,000 agents are imported over
 * REST (900 composable, 97 standalone that cannot be sub-agents, 3 teams). Chromium then opens /agents
 * and the script prints:
 * - time to first render: navigation start to the `switchboard:library-rendered` mark the page sets
 *   (or, without it, to the first agent card in the DOM), median of a few cold loads in fresh contexts;
 * - search keystroke and filter click to result: measured inside the page, from the input event (or
 *   click) to the second animation frame after the "Showing N of M agents" status changed, i.e. the
 *   paint that shows the result; median and p95 over 20 of each;
 * - the gzipped size of the JavaScript the first page loads (each script response gzipped here).
 *
 * Nothing fails on a figure: timings depend on the machine; each is printed beside its target.
 */
import { type Browser, chromium, type Page } from '@playwright/test';
import * as zlib from 'node:zlib';
// No import of node:perf_hooks: `performance` must stay the global one, since the functions passed to
// page.evaluate run in the browser and an imported binding would be renamed by the TypeScript transform.
import { assertChromiumInstalled, CHROMIUM_ARGS } from '../e2e/chromium';
import { type RunningService, startService } from '../e2e/service';

const COMPOSABLE = 900;
const STANDALONE = 97;
const TEAMS = 3;
const TOTAL = COMPOSABLE + STANDALONE + TEAMS;
const LOADS = 5;
const SAMPLES = 20;
const TARGET_INTERACTION_MS = 50;
const TARGET_JS_GZIP_BYTES = 250 * 1024;
const RESULT_TIMEOUT_MS = 5_000;

const WORDS = ['review', 'plan', 'test', 'docs', 'deploy', 'triage', 'refactor', 'security', 'release', 'migrate'];

/** The 1,000 agent files: ids and names carry a 4-digit number, so a digit search narrows the list step by step. */
function agentFiles(): Array<{ name: string; content: string }> {
  const files: Array<{ name: string; content: string }> = [];
  const add = (agent: Record<string, unknown>) => files.push({ name: `${String(agent.id)}.json`, content: JSON.stringify(agent, null, 2) });
  for (let i = 0; i < COMPOSABLE + STANDALONE; i++) {
    const n = String(i).padStart(4, '0');
    const word = WORDS[i % WORDS.length];
    const composable = i < COMPOSABLE;
    add({
      id: `agent-${n}`,
      name: `${word[0].toUpperCase()}${word.slice(1)} agent ${n}`,
      icon: '🤖',
      description: `Helps with ${word} work for the platform team`,
      system_message: { mode: 'append', content: `You are the ${word} specialist. Be brief and precise.` },
      model: i % 3 === 0 ? 'gpt-4.1' : null,
      // Standalone: a custom tool keeps it from being a sub-agent (the service says why).
      tools: composable ? { builtin: ['view', 'grep'] } : { custom: [`${word}_webhook`] },
    });
  }
  for (let t = 0; t < TEAMS; t++) {
    add({
      id: `team-${t}`,
      name: `Team lead ${t}`,
      icon: '👥',
      description: `Leads a team of ${WORDS[t]} agents`,
      system_message: { content: 'Delegate each part of the work to the right sub-agent.' },
      sub_agents: Array.from({ length: 5 }, (_, k) => `agent-${String(t * 10 + k).padStart(4, '0')}`),
    });
  }
  return files;
}

async function seed(service: RunningService): Promise<void> {
  const files = agentFiles();
  // Teams last: their sub-agents must exist (the import checks references against the library).
  for (let from = 0; from < files.length; from += 250) await service.api.importFiles(files.slice(from, from + 250));
  const agents = await service.api.listAgents();
  if (agents.length !== TOTAL) throw new Error(`expected ${TOTAL} agents after the import, the service lists ${agents.length}`);
}

/** The first-render moment as the page measures it: its own mark, or the first agent card an observer saw. */
async function installFirstCardProbe(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __firstCardAt?: number };
    const observer = new MutationObserver(() => {
      if (w.__firstCardAt === undefined && document.querySelector('article')) {
        w.__firstCardAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  });
}

async function firstRenderMs(page: Page): Promise<{ ms: number; source: string }> {
  return page.evaluate(() => {
    const mark = performance.getEntriesByName('switchboard:library-rendered')[0];
    if (mark) return { ms: mark.startTime, source: 'mark' };
    return { ms: (window as unknown as { __firstCardAt: number }).__firstCardAt, source: 'first <article>' };
  });
}

async function openLibrary(browser: Browser, url: string): Promise<{ page: Page; render: { ms: number; source: string }; scripts: Buffer[] }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  await installFirstCardProbe(page);
  const scriptBodies: Array<Promise<Buffer>> = [];
  page.on('response', (response) => {
    const type = response.request().resourceType();
    const contentType = response.headers()['content-type'] ?? '';
    if (type === 'script' || contentType.includes('javascript')) scriptBodies.push(response.body());
  });
  await page.goto(`${url}/agents`);
  await page.getByRole('list', { name: 'Agent library' }).getByRole('article').first().waitFor();
  await page
    .getByRole('status')
    .filter({ hasText: `Showing ${TOTAL} of ${TOTAL} agents` })
    .waitFor();
  await page.waitForLoadState('networkidle');
  return { page, render: await firstRenderMs(page), scripts: await Promise.all(scriptBodies) };
}

/**
 * Runs `act` inside the page and returns the time from it to the paint after the status text changed
 * (two animation frames: the first runs before that paint, the second after it).
 */
async function timeToResult(page: Page, act: 'search' | 'click', argument: string): Promise<number> {
  return page.evaluate(
    async ({ act, argument, timeoutMs }) => {
      const status = [...document.querySelectorAll('[role="status"]')].find((s) => /^Showing \d+ of \d+ agents$/.test(s.textContent?.trim() ?? ''));
      if (!status) throw new Error('no role=status element saying "Showing N of M agents"');
      const before = status.textContent;
      const changed = new Promise<boolean>((resolve) => {
        const observer = new MutationObserver(() => {
          if (status.textContent !== before) {
            observer.disconnect();
            resolve(true);
          }
        });
        observer.observe(status, { childList: true, subtree: true, characterData: true });
        setTimeout(() => {
          observer.disconnect();
          resolve(false);
        }, timeoutMs);
      });
      const start = performance.now();
      if (act === 'search') {
        const input = document.querySelector<HTMLInputElement>('input[aria-label="Search agents"], input#search-agents') ?? searchByLabel();
        // React tracks the value it set: use the native setter so the input event carries the new text.
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, argument);
        input.dispatchEvent(new Event('input', { bubbles: true }));
      } else {
        const group = document.querySelector('[role="group"][aria-label="Filter agents"]');
        const button = [...(group?.querySelectorAll('button') ?? [])].find((b) => b.textContent?.trim().startsWith(argument));
        if (!button) throw new Error(`no filter button ${argument}`);
        button.click();
      }
      if (!(await changed)) throw new Error(`the status stayed "${before}" after ${act} ${argument}`);
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      return performance.now() - start;

      function searchByLabel(): HTMLInputElement {
        const label = [...document.querySelectorAll('label')].find((l) => l.textContent?.trim() === 'Search agents');
        const input = label?.control;
        if (!(input instanceof HTMLInputElement)) throw new Error('no input labelled "Search agents"');
        return input;
      }
    },
    { act, argument, timeoutMs: RESULT_TIMEOUT_MS },
  );
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const executablePath = assertChromiumInstalled();
  const started = performance.now();
  const service = await startService();
  let browser: Browser | undefined;
  try {
    await seed(service);
    const seeded = performance.now();
    browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true });

    // Cold loads, each in a fresh context (no cache): the first also gives the JavaScript it loaded.
    const renders: number[] = [];
    let renderSource = '';
    let scripts: Buffer[] = [];
    let page: Page | undefined;
    for (let i = 0; i < LOADS; i++) {
      const load = await openLibrary(browser, service.url);
      renders.push(load.render.ms);
      renderSource = load.render.source;
      if (i === 0) scripts = load.scripts;
      if (i < LOADS - 1) await load.page.context().close();
      else page = load.page;
    }
    if (!page) throw new Error('no page');

    // Search: type a digit, two, three, then clear, for several digits; every step changes the count.
    const search: number[] = [];
    const steps: Array<{ what: string; ms: number }> = [];
    for (const digit of ['7', '3', '5', '8', '2']) {
      for (const value of [digit, digit + digit, digit + digit + digit, '']) {
        const ms = await timeToResult(page, 'search', value);
        search.push(ms);
        steps.push({ what: `search "${value}"`, ms });
      }
    }
    // Filters: each button in turn, back to All.
    const filters: number[] = [];
    for (let round = 0; round < SAMPLES / 4; round++) {
      for (const name of ['Teams', 'Composable', 'Standalone', 'All']) {
        const ms = await timeToResult(page, 'click', name);
        filters.push(ms);
        steps.push({ what: `filter ${name}`, ms });
      }
    }

    const rawJs = scripts.reduce((sum, body) => sum + body.length, 0);
    const gzipJs = scripts.reduce((sum, body) => sum + zlib.gzipSync(body).length, 0);
    const version = browser.version();

    const rows: Array<[string, string, string, string]> = [
      [`first render (median of ${LOADS} cold loads; ${renderSource})`, `${fmt(percentile(renders, 50))} (min ${fmt(Math.min(...renders))})`, '-', ''],
      [
        `search keystroke -> result (median / p95 of ${search.length})`,
        `${fmt(percentile(search, 50))} / ${fmt(percentile(search, 95))}`,
        `< ${TARGET_INTERACTION_MS} ms`,
        percentile(search, 95) < TARGET_INTERACTION_MS ? 'PASS' : 'OVER',
      ],
      [
        `filter click -> result (median / p95 of ${filters.length})`,
        `${fmt(percentile(filters, 50))} / ${fmt(percentile(filters, 95))}`,
        `< ${TARGET_INTERACTION_MS} ms`,
        percentile(filters, 95) < TARGET_INTERACTION_MS ? 'PASS' : 'OVER',
      ],
      [
        `first-page JavaScript, gzipped (${scripts.length} file(s), ${kb(rawJs)} raw)`,
        kb(gzipJs),
        `< ${kb(TARGET_JS_GZIP_BYTES)}`,
        gzipJs < TARGET_JS_GZIP_BYTES ? 'PASS' : 'OVER',
      ],
    ];
    const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length), ['metric', 'value', 'target'][c].length));
    const line = (r: string[]) => `${r[0].padEnd(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padEnd(widths[2])}  ${r[3]}`.trimEnd();
    console.log(
      `\nConsole bench: ${TOTAL} agents (${COMPOSABLE} composable, ${STANDALONE} standalone, ${TEAMS} teams), Chromium ${version} headless, ` +
        `seeded in ${fmt(seeded - started)} (service start + import)\n`,
    );
    console.log(line(['metric', 'value', 'target', 'result']));
    console.log(line(widths.map((w) => '-'.repeat(w)).concat('------')));
    for (const row of rows) console.log(line(row));
    const slowest = [...steps].sort((a, b) => b.ms - a.ms).slice(0, 5);
    console.log(`\nSlowest interactions: ${slowest.map((s) => `${s.what} ${fmt(s.ms)}`).join(', ')}`);
    console.log(
      'Interaction times are measured in the page: input event or click, to the second animation frame after the status changed; PASS is on p95.',
    );
  } finally {
    await browser?.close();
    await service.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
