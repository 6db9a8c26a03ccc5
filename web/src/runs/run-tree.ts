import type { BudgetLimits } from '../session-settings';
// The run page's normalized store: every run of the subtree keyed by id, folded from the runEvents
// stream (the run's, its descendants' and their threads' events, replayed from the root's start, then
// live). Folding one event touches one run (and appends one child id), so a burst of events costs what it
// carries, never the size of the tree; a run is replaced, not mutated, so a memoized row re-renders only
// when its own run changed.

export type RunStatus = 'running' | 'completed' | 'failed' | 'stopped' | 'interrupted';

export interface StopReason {
  actor: string;
  reason: string;
  cascadeFrom?: string;
  forced?: boolean;
  /** actor `budget`: the limit passed, what it allowed and what had been used. */
  limit?: string;
  allowed?: number;
  used?: number;
  budgetSessionId?: string;
}

export interface RunNode {
  runId: string;
  parentRunId: string | null;
  agentId: string;
  prompt: string;
  background: boolean;
  depth: number;
  status: RunStatus;
  epoch: number;
  /** ISO time of run.started (the first launch). */
  startedAt: string;
  /** ISO time it ended; unset while running (a resume clears it). */
  endedAt?: string;
  output?: string;
  error?: string;
  stoppedBy?: StopReason;
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
}

/** An event as the runEvents subscription delivers it (the fields the page reads). */
export interface RunStreamEvent {
  globalPosition: number;
  streamId: string;
  type: string;
  recordedAt: string;
  data: unknown;
}

export interface RunStore {
  readonly runs: Map<string, RunNode>;
  /** Child ids per parent id, in start order. */
  readonly children: Map<string, string[]>;
  /** The last global position folded: a replayed duplicate (after a reconnect) is ignored. */
  lastPosition: number;
}

export function emptyStore(): RunStore {
  return { runs: new Map(), children: new Map(), lastPosition: 0 };
}

const USAGE = 'cli.assistant.usage';
const TOOL_START = 'cli.tool.execution_start';
const THREAD_STREAM = /^session-sub-agent-(.+)$/;

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Folds one event into the store; returns whether anything the page shows changed. */
export function foldEvent(store: RunStore, event: RunStreamEvent): boolean {
  if (event.globalPosition <= store.lastPosition) return false;
  store.lastPosition = event.globalPosition;
  const data = record(event.data);

  if (event.type === USAGE || event.type === TOOL_START) {
    const runId = THREAD_STREAM.exec(event.streamId)?.[1];
    const run = runId ? store.runs.get(runId) : undefined;
    if (!run) return false;
    const payload = record(data.payload);
    store.runs.set(
      run.runId,
      event.type === USAGE
        ? { ...run, inputTokens: run.inputTokens + num(payload.inputTokens), outputTokens: run.outputTokens + num(payload.outputTokens) }
        : { ...run, toolCalls: run.toolCalls + 1 },
    );
    return true;
  }

  if (!event.type.startsWith('run.') || !event.streamId.startsWith('run-')) return false;
  const runId = str(data.runId);
  if (!runId) return false;

  if (event.type === 'run.started') {
    if (store.runs.has(runId)) return false;
    const parentRunId = str(data.parentRunId) ?? null;
    store.runs.set(runId, {
      runId,
      parentRunId,
      agentId: str(data.agentId) ?? '?',
      prompt: str(data.prompt) ?? '',
      background: data.background === true,
      depth: num(data.depth),
      status: 'running',
      epoch: num(data.epoch) || 1,
      startedAt: event.recordedAt,
      inputTokens: 0,
      outputTokens: 0,
      toolCalls: 0,
    });
    if (parentRunId) {
      const siblings = store.children.get(parentRunId);
      if (siblings) siblings.push(runId);
      else store.children.set(parentRunId, [runId]);
    }
    return true;
  }

  const run = store.runs.get(runId);
  if (!run) return false;
  const ended = { endedAt: event.recordedAt };
  switch (event.type) {
    case 'run.completed':
      store.runs.set(runId, { ...run, ...ended, status: 'completed', output: str(data.output) });
      return true;
    case 'run.failed':
      store.runs.set(runId, { ...run, ...ended, status: 'failed', error: str(data.error) });
      return true;
    case 'run.interrupted':
      store.runs.set(runId, { ...run, ...ended, status: 'interrupted', error: str(data.reason) });
      return true;
    case 'run.stopped': {
      const by = record(data.stoppedBy);
      const stoppedBy: StopReason = { actor: str(by.actor) ?? '?', reason: str(by.reason) ?? '', forced: data.forced === true };
      if (str(by.cascadeFrom)) stoppedBy.cascadeFrom = str(by.cascadeFrom);
      // A budget's stop says which limit was passed, what it allowed and what was used.
      if (str(by.limit)) Object.assign(stoppedBy, { limit: str(by.limit), allowed: num(by.allowed), used: num(by.used) });
      if (str(by.budgetSessionId)) stoppedBy.budgetSessionId = str(by.budgetSessionId);
      store.runs.set(runId, { ...run, ...ended, status: 'stopped', stoppedBy });
      return true;
    }
    case 'run.resumed':
      store.runs.set(runId, {
        ...run,
        status: 'running',
        epoch: num(data.epoch) || run.epoch + 1,
        endedAt: undefined,
        error: undefined,
        stoppedBy: undefined,
      });
      return true;
    default:
      return false;
  }
}

export interface TreeRow {
  run: RunNode;
  /** Levels below the page's root run. */
  level: number;
  hasChildren: boolean;
  /** Tokens, tool calls and runs of it and everything below it. */
  subtree: { tokens: number; toolCalls: number; runs: number };
}

/**
 * The rows of the tree under `rootId`, depth-first (children in start order), skipping what is under a
 * collapsed run; subtree sums in the same one pass. O(runs) per call, once per animation frame at most.
 */
export function treeRows(store: RunStore, rootId: string, collapsed: ReadonlySet<string>): TreeRow[] {
  const rows: TreeRow[] = [];
  const root = store.runs.get(rootId);
  if (!root) return rows;
  // Iterative post-order for the sums (a deep tree must not overflow the stack), then the visible rows.
  const sums = new Map<string, TreeRow['subtree']>();
  const order: string[] = [];
  const stack = [rootId];
  while (stack.length) {
    const id = stack.pop()!;
    order.push(id);
    for (const child of store.children.get(id) ?? []) if (store.runs.has(child)) stack.push(child);
  }
  for (let i = order.length - 1; i >= 0; i--) {
    const run = store.runs.get(order[i])!;
    const sum = { tokens: run.inputTokens + run.outputTokens, toolCalls: run.toolCalls, runs: 1 };
    for (const child of store.children.get(run.runId) ?? []) {
      const s = sums.get(child);
      if (!s) continue;
      sum.tokens += s.tokens;
      sum.toolCalls += s.toolCalls;
      sum.runs += s.runs;
    }
    sums.set(run.runId, sum);
  }
  const visit: Array<[string, number]> = [[rootId, 0]];
  while (visit.length) {
    const [id, level] = visit.pop()!;
    const run = store.runs.get(id)!;
    const kids = (store.children.get(id) ?? []).filter((c) => store.runs.has(c));
    rows.push({ run, level, hasChildren: kids.length > 0, subtree: sums.get(id)! });
    if (collapsed.has(id)) continue;
    for (let i = kids.length - 1; i >= 0; i--) visit.push([kids[i], level + 1]);
  }
  return rows;
}

/** The runs below `rootId` still running: what a Stop of it will stop besides itself. */
export function runningDescendants(store: RunStore, rootId: string): number {
  let count = 0;
  const stack = [...(store.children.get(rootId) ?? [])];
  while (stack.length) {
    const id = stack.pop()!;
    if (store.runs.get(id)?.status === 'running') count++;
    stack.push(...(store.children.get(id) ?? []));
  }
  return count;
}

/** A run's duration in ms, up to `now` while it runs. */
export function durationMs(run: RunNode, now: number): number {
  const end = run.endedAt ? Date.parse(run.endedAt) : now;
  return Math.max(0, end - Date.parse(run.startedAt));
}

/** "850 ms", "12.3 s", "4 min 05 s", "2 h 03 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${String(Math.floor(s % 60)).padStart(2, '0')} s`;
  return `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, '0')} min`;
}

/** What the stop reason says in a sentence: who, why, and whether it cascaded from another run. */
export function describeStop(stop: StopReason): string {
  if (stop.actor === 'budget') {
    const whose = stop.budgetSessionId
      ? `session ${stop.budgetSessionId}'s budget`
      : stop.cascadeFrom
        ? `the budget of run ${stop.cascadeFrom}`
        : 'its budget';
    const passed = stop.limit
      ? `: ${budgetLimitLabel(stop.limit)} ${formatBudgetValue(stop.limit, stop.used)} of ${formatBudgetValue(stop.limit, stop.allowed)}`
      : '';
    return `Stopped by ${whose}${passed}${stop.forced ? ' (its CLI session was destroyed)' : ''}`;
  }
  const who = stop.actor === 'api' ? 'an operator (API)' : stop.actor === 'switchboard' ? 'Switchboard' : stop.actor;
  const cascade = stop.cascadeFrom ? ` when run ${stop.cascadeFrom} was stopped` : '';
  return `Stopped by ${who}${cascade}${stop.reason ? `: ${stop.reason}` : ''}${stop.forced ? ' (its CLI session was destroyed)' : ''}`;
}

/** The budget limits, as the service names them (`stopped_by.limit`). */
export const BUDGET_LIMITS = ['max_tokens', 'max_tool_calls', 'max_runs', 'max_duration_ms', 'max_cost'] as const;
export type BudgetLimitName = (typeof BUDGET_LIMITS)[number];

export function budgetLimitLabel(limit: string): string {
  return { max_tokens: 'tokens', max_tool_calls: 'tool calls', max_runs: 'runs', max_duration_ms: 'time', max_cost: 'cost' }[limit] ?? limit;
}

function formatBudgetValue(limit: string, value: number | undefined): string {
  if (value === undefined) return 'unknown';
  if (limit === 'max_cost') return value.toLocaleString('en', { maximumFractionDigits: 4 });
  return limit === 'max_duration_ms' ? formatDuration(value) : String(value);
}

export interface BudgetLine {
  limit: BudgetLimitName;
  label: string;
  /** undefined: not known. */
  used: number | undefined;
  allowed: number;
  /** used / allowed, 0..1 (capped): the meter's fill. */
  share: number;
  text: string;
}

/**
 * One line per limit the budget sets: what the subtree used of what it may, live from the folded tree
 * (the same sums the service's budget guard counts) when the page has them.
 */
export function budgetLines(
  limits: BudgetLimits,
  // cost undefined: not known (a call without a price), shown as "unknown" as the model calls say it, never as 0.
  used: { tokens: number; toolCalls: number; runs: number; durationMs: number; cost?: number },
): BudgetLine[] {
  const lines: BudgetLine[] = [];
  const add = (limit: BudgetLimitName, allowed: number | null | undefined, value: number | undefined) => {
    if (!allowed) return;
    const left = value === undefined ? undefined : Math.max(0, allowed - value);
    lines.push({
      limit,
      label: budgetLimitLabel(limit),
      used: value,
      allowed,
      share: value === undefined ? 0 : Math.min(1, value / allowed),
      text: `${formatBudgetValue(limit, value)} of ${formatBudgetValue(limit, allowed)} (${formatBudgetValue(limit, left)} left)`,
    });
  };
  add('max_tokens', limits.maxTokens, used.tokens);
  add('max_tool_calls', limits.maxToolCalls, used.toolCalls);
  add('max_runs', limits.maxRuns, used.runs);
  add('max_duration_ms', limits.maxDurationMs, used.durationMs);
  add('max_cost', limits.maxCost, used.cost);
  return lines;
}
