/**
 * A run's page with a 501-run tree (500 below the root) while 200 events a second arrive, in headless Chromium.
 *
 *   npm run bench:console        (builds the console, runs the library bench, then this one)
 *
 * The real Nest app runs in this process on a fresh SQLite file, serving web/dist. A delegation tree of
 * 500 runs (a root, 99 children, 4 grandchildren each) is appended to its event store as the delegation
 * engine appends it (`run.started` with lineage paths; the inline projection writes the `runs` rows), each
 * run with a tool call on its thread (the CLI's start and end of a `view`).
 * Chromium opens the root's page: the time from navigation to the first step of the timeline in words,
 * and to every run's start in it. Then, for LOAD_SECONDS, 200 events a second are committed: new
 * children of the root starting, and running children completing. The page's own DOM says when each
 * shows: the timeline's filter counts each kind of step (a start is a "Runs starting and ending" step,
 * a completion an answer), and the k-th `run.completed` is shown once it says k (the tree changes in the
 * same render). The script prints the time from an event's commit (its append resolved) to its
 * appearance (median, p99, worst), how many were seen, the longest main-thread task Chromium reported
 * (PerformanceObserver "longtask") and the p95 frame time (requestAnimationFrame to the next) while they
 * arrived. Last, with the grown tree, a search typed into the timeline one key at a time: from the input
 * event to the second animation frame after the list shows that query's result (p95 per keystroke).
 *
 * The model and the Copilot CLI play no part: these are the events they would cause, committed by the
 * service's own store. Nothing fails on a figure: timings depend on the machine; each is printed beside
 * its target (median under 100 ms, p99 under 500 ms, no task over 100 ms).
 */
import { type Browser, chromium, type Page } from '@playwright/test';
import * as path from 'node:path';
import { v7 as uuidv7 } from 'uuid';
import { EventStore } from '../src/event-store/event-store';
import { runStreamId, sessionStreamId } from '../src/event-store/stream-ids';
import type { RunStartedData } from '../src/delegation/run.events';
import { startTestApp } from '../test/fixtures/app-fixture';
import { assertChromiumInstalled, CHROMIUM_ARGS } from '../web/e2e/chromium';
import { percentile, runStartedData } from './figures';

/** The built console (npm run build:web); another build can be measured with SWITCHBOARD_CONSOLE_DIR. */
const CONSOLE_DIR = process.env.SWITCHBOARD_CONSOLE_DIR || path.join(__dirname, '..', 'web', 'dist');
const CHILDREN = 100;
const GRANDCHILDREN = 4;
const EVENTS_PER_SECOND = 200;
const LOAD_SECONDS = 10;
const TICK_MS = 50;
const TARGETS = { medianMs: 100, p99Ms: 500, longestTaskMs: 100, frameP95Ms: 100, keystrokeP95Ms: 50 };
/** Typed one key at a time into the timeline's search, each query cleared after: every keystroke is timed. */
const SEARCHES = ['helper-2', 'late-3 answered', 'view src', 'worker-5'];

const POLICY = { allowedAgents: null, excludedAgents: [], maxDepth: 5, maxConcurrentChildren: 1000, timeoutMs: 1_800_000 };

interface Seen {
  /** Per event type, when the page first showed each count of it. */
  shown: Record<string, Record<number, number>>;
  longestTask: number;
  tasks: number;
  /** When (page clock) the timeline first showed a step, and every run's start. */
  firstStepAt?: number;
  /** Time between animation frames while `measuring`. */
  frames: number[];
}

function startedEvent(runId: string, parent: RunStartedData | undefined, agentId: string): RunStartedData {
  return runStartedData(runId, parent, agentId, { prompt: `Work item for ${agentId}`, policy: POLICY });
}

async function appendStarted(store: EventStore, data: RunStartedData): Promise<void> {
  await store.append(runStreamId(data.runId), 'no_stream', [
    { type: 'run.started', data: { ...data }, metadata: { actor: 'bench', correlationId: data.rootRunId } },
  ]);
}

/** A tool call on the run's thread, as the Copilot CLI records it: what the timeline words as "ran `view …`". */
async function appendToolCall(store: EventStore, runId: string, n: number): Promise<void> {
  const toolCallId = `call-${runId.slice(-8)}-${n}`;
  await store.append(sessionStreamId(`sub-agent-${runId}`), 'any', [
    {
      type: 'cli.tool.execution_start',
      data: { payload: { toolCallId, toolName: 'view', arguments: { path: `src/module-${n}.ts` } } },
      metadata: { actor: 'bench', correlationId: runId },
    },
    {
      type: 'cli.tool.execution_complete',
      data: { payload: { toolCallId, success: true, result: { content: 'ok' } } },
      metadata: { actor: 'bench', correlationId: runId },
    },
  ]);
}

async function appendCompleted(store: EventStore, runId: string): Promise<void> {
  await store.append(runStreamId(runId), 'any', [
    { type: 'run.completed', data: { runId, epoch: 1, output: `done ${runId.slice(-4)}` }, metadata: { actor: 'bench', correlationId: runId } },
  ]);
}

/**
 * Records, by the page's clock (Date.now: the same system clock as this process), when the page first
 * showed N events of a type: the timeline's kind filter lists each kind of step with its count (a
 * run.started is a "Runs starting and ending" step, a run.completed an answer), and the tree is rendered
 * in the same frame (it only holds the rows in view, so rows are not what is watched). Also when the
 * first step showed, and, while `measuring`, the longest task and every frame's time. Plain JavaScript in
 * a string: this file is type-checked without the DOM library.
 */
const PROBE = `
(() => {
  const seen = { shown: {}, longestTask: 0, tasks: 0, measuring: false, frames: [] };
  window.__seen = seen;
  const last = {};
  const typeOf = { 'Runs starting and ending': 'run.started', 'Messages and answers': 'run.completed' };
  const look = () => {
    const now = Date.now();
    if (seen.firstStepAt === undefined && document.querySelector('.timeline-step')) seen.firstStepAt = now;
    const select = document.getElementById('timeline-kind');
    if (!select) return;
    for (const option of select.options) {
      const match = /^(.+) \\((\\d+)\\)$/.exec(option.textContent.trim());
      if (!match || !typeOf[match[1]]) continue;
      const type = typeOf[match[1]];
      const count = Number(match[2]);
      const shown = (seen.shown[type] ??= {});
      for (let n = (last[type] ?? 0) + 1; n <= count; n++) shown[n] = now;
      last[type] = Math.max(last[type] ?? 0, count);
    }
  };
  new MutationObserver(look).observe(document, { childList: true, subtree: true, characterData: true });
  new PerformanceObserver((list) => {
    if (!seen.measuring) return;
    for (const entry of list.getEntries()) {
      seen.tasks += 1;
      seen.longestTask = Math.max(seen.longestTask, entry.duration);
    }
  }).observe({ type: 'longtask', buffered: false });
  let previous;
  const frame = (t) => {
    if (seen.measuring && previous !== undefined) seen.frames.push(t - previous);
    previous = t;
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();
`;

/**
 * Sets the timeline's search to \`value\` as a keystroke does and returns the time, in the page, from the
 * input event to the second animation frame after the list shows that query (its data-query): the
 * paint with the result.
 */
const SEARCH_KEYSTROKE = `
async (value) => {
  const input = document.getElementById('timeline-search');
  const list = document.querySelector('.timeline-list');
  const start = performance.now();
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, value);
  input.dispatchEvent(new Event('input', { bubbles: true }));
  const deadline = start + 5000;
  while (list.getAttribute('data-query') !== value) {
    if (performance.now() > deadline) throw new Error('the timeline never showed the query ' + value);
    await new Promise((r) => setTimeout(r, 0));
  }
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
  return performance.now() - start;
}
`;

const typeInSearch = (page: Page, value: string) => page.evaluate<number>(`(${SEARCH_KEYSTROKE})(${JSON.stringify(value)})`);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function main(): Promise<void> {
  const executablePath = assertChromiumInstalled();
  const running = await startTestApp({ console: { dir: CONSOLE_DIR } });
  const store = running.app.get(EventStore);
  let browser: Browser | undefined;
  try {
    // The tree: a root, its children, their children.
    const root = startedEvent(uuidv7(), undefined, 'lead');
    await appendStarted(store, root);
    const children: RunStartedData[] = [];
    for (let c = 0; c < CHILDREN; c++) {
      const child = startedEvent(uuidv7(), root, `worker-${c % 7}`);
      children.push(child);
      await appendStarted(store, child);
      await appendToolCall(store, child.runId, c);
      for (let g = 0; g < GRANDCHILDREN; g++) {
        const grandchild = startedEvent(uuidv7(), child, `helper-${g}`);
        await appendStarted(store, grandchild);
        await appendToolCall(store, grandchild.runId, g);
      }
    }
    const treeSize = 1 + CHILDREN + CHILDREN * GRANDCHILDREN;

    browser = await chromium.launch({ executablePath, args: [...CHROMIUM_ARGS], headless: true });
    const page = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
    await page.addInitScript({ content: PROBE });
    const opened = Date.now();
    await page.goto(`${running.baseUrl}/runs/${root.runId}`);
    await page.getByText(new RegExp(`^${treeSize} runs,`)).waitFor({ timeout: 60_000 });
    const openMs = Date.now() - opened;
    // The timeline in words: its first step, and every run's start as a step.
    // (Polled from here: the console's CSP forbids the eval waitForFunction does with a string.)
    for (const until = Date.now() + 60_000; !(await page.evaluate<boolean>(`(window.__seen.shown['run.started'] ?? {})[${treeSize}] !== undefined`));) {
      if (Date.now() > until) throw new Error(`the timeline never showed ${treeSize} run starts`);
      await sleep(50);
    }
    const opening = await page.evaluate<Seen>('window.__seen');
    const firstStepMs = (opening.firstStepAt ?? NaN) - opened;
    const allStartsMs = opening.shown['run.started'][treeSize] - opened;
    await page.evaluate('window.__seen.measuring = true');

    // The load: each tick commits its share of events, half new children of the root, half completions.
    // Each event by its type and ordinal (the page's count of that type once it shows it), with its commit time.
    const committed: Array<{ type: string; ordinal: number; at: number }> = [];
    const count: Record<string, number> = { 'run.started': treeSize, 'run.completed': 0 };
    const commit = (type: string, append: Promise<void>) => {
      const entry = { type, ordinal: (count[type] += 1), at: 0 };
      committed.push(entry);
      return append.then(() => void (entry.at = Date.now()));
    };
    const toComplete = [...children];
    const perTick = (EVENTS_PER_SECOND * TICK_MS) / 1000;
    const ticks = (LOAD_SECONDS * 1000) / TICK_MS;
    const loadStarted = Date.now();
    for (let t = 0; t < ticks; t++) {
      const due = loadStarted + t * TICK_MS;
      if (Date.now() < due) await sleep(due - Date.now());
      const appends: Array<Promise<void>> = [];
      for (let i = 0; i < perTick; i++) {
        if (i % 2 === 0 || toComplete.length === 0) {
          const child = startedEvent(uuidv7(), root, `late-${t % 5}`);
          toComplete.push(child);
          appends.push(commit('run.started', appendStarted(store, child)));
        } else {
          const child = toComplete.shift()!;
          appends.push(commit('run.completed', appendCompleted(store, child.runId)));
        }
      }
      await Promise.all(appends);
    }
    const loadSeconds = (Date.now() - loadStarted) / 1000;
    await sleep(3000); // late arrivals
    const seen = await page.evaluate<Seen>('window.__seen');
    await page.evaluate('window.__seen.measuring = false');

    // Search in the grown timeline, one key at a time, then cleared (the whole timeline back).
    const keystrokes: number[] = [];
    for (const query of SEARCHES) {
      for (let n = 1; n <= query.length; n++) keystrokes.push(await typeInSearch(page, query.slice(0, n)));
      keystrokes.push(await typeInSearch(page, ''));
    }
    const steps = await page.locator('.timeline-scope').textContent();

    const latencies: number[] = [];
    let missing = 0;
    for (const { type, ordinal, at } of committed) {
      const shown = seen.shown[type]?.[ordinal];
      if (shown === undefined) missing += 1;
      else latencies.push(Math.max(0, shown - at));
    }
    const median = percentile(latencies, 50);
    const p99 = percentile(latencies, 99);
    const verdict = (value: number, target: number) => (value <= target ? `(target ${target} ms: met)` : `(target ${target} ms: OVER)`);
    console.log(`run page: ${treeSize} runs in the tree at the start, opened in ${openMs} ms`);
    console.log(
      `readable timeline: first step in words ${firstStepMs.toFixed(0)} ms after navigation, every run's start as a step after ${allStartsMs.toFixed(0)} ms`,
    );
    console.log(
      `load: ${committed.length} events committed in ${loadSeconds.toFixed(1)} s (${(committed.length / loadSeconds).toFixed(0)}/s); tree ended at ${treeSize + committed.length / 2} runs`,
    );
    console.log(
      `commit to appearance: median ${median.toFixed(0)} ms ${verdict(median, TARGETS.medianMs)}, p99 ${p99.toFixed(0)} ms ${verdict(p99, TARGETS.p99Ms)}, worst ${Math.max(...latencies).toFixed(0)} ms`,
    );
    console.log(`seen: ${latencies.length} of ${committed.length}${missing ? ` (${missing} never appeared)` : ''}`);
    console.log(
      `longest main-thread task while events arrived: ${seen.longestTask.toFixed(0)} ms over ${seen.tasks} long tasks ${verdict(seen.longestTask, TARGETS.longestTaskMs)}`,
    );
    const frameP95 = percentile(seen.frames, 95);
    console.log(
      `frame time while events arrived: p95 ${frameP95.toFixed(1)} ms ${verdict(frameP95, TARGETS.frameP95Ms)}, median ${percentile(seen.frames, 50).toFixed(1)} ms, worst ${Math.max(...seen.frames).toFixed(0)} ms over ${seen.frames.length} frames`,
    );
    const keyP95 = percentile(keystrokes, 95);
    console.log(
      `timeline search, keystroke to result: p95 ${keyP95.toFixed(1)} ms ${verdict(keyP95, TARGETS.keystrokeP95Ms)}, median ${percentile(keystrokes, 50).toFixed(1)} ms, worst ${Math.max(...keystrokes).toFixed(0)} ms over ${keystrokes.length} keystrokes (${steps?.split('.')[0]})`,
    );
  } finally {
    await browser?.close();
    await running.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
