import {
  budgetLines,
  describeStop,
  durationMs,
  emptyStore,
  foldEvent,
  formatDuration,
  runningDescendants,
  type RunStreamEvent,
  treeRows,
} from './run-tree';

let position = 0;
const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 12, 0, s)).toISOString();

function started(runId: string, parentRunId: string | null, s = 0, extra: Record<string, unknown> = {}): RunStreamEvent {
  return {
    globalPosition: ++position,
    streamId: `run-${runId}`,
    type: 'run.started',
    recordedAt: at(s),
    data: { runId, parentRunId, agentId: `agent-${runId}`, prompt: 'p', background: true, depth: 0, epoch: 1, ...extra },
  };
}
function runEvent(type: string, runId: string, s: number, data: Record<string, unknown> = {}): RunStreamEvent {
  return { globalPosition: ++position, streamId: `run-${runId}`, type, recordedAt: at(s), data: { runId, epoch: 1, ...data } };
}
function threadEvent(type: string, runId: string, payload: Record<string, unknown> = {}): RunStreamEvent {
  return { globalPosition: ++position, streamId: `session-sub-agent-${runId}`, type, recordedAt: at(0), data: { payload } };
}

describe('run tree store', () => {
  it('builds the tree from run.started events and follows each run through its statuses', () => {
    const store = emptyStore();
    foldEvent(store, started('root', null));
    foldEvent(store, started('a', 'root', 1));
    foldEvent(store, started('b', 'root', 2));
    foldEvent(store, started('a1', 'a', 3));
    expect(treeRows(store, 'root', new Set()).map((r) => [r.run.runId, r.level])).toEqual([
      ['root', 0],
      ['a', 1],
      ['a1', 2],
      ['b', 1],
    ]);
    expect(runningDescendants(store, 'root')).toBe(3);

    foldEvent(store, runEvent('run.completed', 'a1', 5, { output: 'done' }));
    foldEvent(store, runEvent('run.stopped', 'b', 6, { stoppedBy: { actor: 'api', reason: 'enough', cascadeFrom: 'root' }, forced: false }));
    foldEvent(store, runEvent('run.failed', 'a', 7, { error: 'boom' }));
    expect(store.runs.get('a1')).toMatchObject({ status: 'completed', output: 'done', endedAt: at(5) });
    expect(store.runs.get('b')).toMatchObject({ status: 'stopped', stoppedBy: { actor: 'api', reason: 'enough', cascadeFrom: 'root', forced: false } });
    expect(store.runs.get('a')).toMatchObject({ status: 'failed', error: 'boom' });
    expect(runningDescendants(store, 'root')).toBe(0);

    foldEvent(store, runEvent('run.interrupted', 'root', 8, { reason: 'service restarted' }));
    foldEvent(store, runEvent('run.resumed', 'root', 9, { epoch: 2 }));
    expect(store.runs.get('root')).toMatchObject({ status: 'running', epoch: 2, endedAt: undefined, error: undefined });
  });

  it('keeps what a budget stop says: the limit passed, what it allowed, what was used', () => {
    const store = emptyStore();
    foldEvent(store, started('root', null));
    const stoppedBy = { actor: 'budget', reason: 'budget_exceeded', limit: 'max_tokens', allowed: 1500, used: 1800 };
    foldEvent(store, runEvent('run.stopped', 'root', 2, { stoppedBy, forced: false }));
    expect(store.runs.get('root')?.stoppedBy).toEqual({ ...stoppedBy, forced: false });
    expect(describeStop(store.runs.get('root')!.stoppedBy!)).toBe('Stopped by its budget: tokens 1800 of 1500');
  });

  it('counts tokens and tool calls from the run threads and sums them per subtree', () => {
    const store = emptyStore();
    foldEvent(store, started('root', null));
    foldEvent(store, started('kid', 'root'));
    foldEvent(store, threadEvent('cli.assistant.usage', 'root', { inputTokens: 10, outputTokens: 5 }));
    foldEvent(store, threadEvent('cli.assistant.usage', 'kid', { inputTokens: 7, outputTokens: 3 }));
    foldEvent(store, threadEvent('cli.tool.execution_start', 'kid'));
    foldEvent(store, threadEvent('cli.tool.execution_start', 'kid'));
    const [root, kid] = treeRows(store, 'root', new Set());
    expect(root.subtree).toEqual({ tokens: 25, toolCalls: 2, runs: 2 });
    expect(root.run.inputTokens + root.run.outputTokens).toBe(15);
    expect(kid.subtree).toEqual({ tokens: 10, toolCalls: 2, runs: 1 });
  });

  it('ignores an event it already folded (a replay after a reconnect) and events of unknown runs', () => {
    const store = emptyStore();
    const first = started('root', null);
    expect(foldEvent(store, first)).toBe(true);
    const usage = threadEvent('cli.assistant.usage', 'root', { inputTokens: 10, outputTokens: 0 });
    foldEvent(store, usage);
    expect(foldEvent(store, usage)).toBe(false);
    expect(foldEvent(store, runEvent('run.completed', 'nobody', 1))).toBe(false);
    expect(foldEvent(store, threadEvent('cli.assistant.message', 'root'))).toBe(false);
    expect(store.runs.get('root')!.inputTokens).toBe(10);
  });

  it('hides what is under a collapsed run but keeps its subtree sums', () => {
    const store = emptyStore();
    foldEvent(store, started('root', null));
    foldEvent(store, started('a', 'root'));
    foldEvent(store, started('a1', 'a'));
    const rows = treeRows(store, 'root', new Set(['a']));
    expect(rows.map((r) => r.run.runId)).toEqual(['root', 'a']);
    expect(rows[1]).toMatchObject({ hasChildren: true, subtree: { runs: 2 } });
  });

  it('folds a 500-run tree with thousands of events in linear work', () => {
    const store = emptyStore();
    foldEvent(store, started('r0', null));
    for (let i = 1; i < 500; i++) foldEvent(store, started(`r${i}`, `r${Math.floor((i - 1) / 4)}`));
    for (let i = 0; i < 5000; i++) foldEvent(store, threadEvent('cli.assistant.usage', `r${i % 500}`, { inputTokens: 1, outputTokens: 1 }));
    const rows = treeRows(store, 'r0', new Set());
    expect(rows).toHaveLength(500);
    expect(rows[0].subtree).toEqual({ tokens: 10_000, toolCalls: 0, runs: 500 });
    expect(runningDescendants(store, 'r0')).toBe(499);
  });

  it('says durations and stop reasons the way a reader wants them', () => {
    const store = emptyStore();
    foldEvent(store, started('root', null, 0));
    const run = store.runs.get('root')!;
    expect(durationMs(run, Date.parse(at(3)))).toBe(3000);
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(12_340)).toBe('12.3 s');
    expect(formatDuration(245_000)).toBe('4 min 05 s');
    expect(formatDuration(7_380_000)).toBe('2 h 03 min');
    expect(describeStop({ actor: 'api', reason: 'enough', cascadeFrom: 'r1', forced: true })).toBe(
      'Stopped by an operator (API) when run r1 was stopped: enough (its CLI session was destroyed)',
    );
    expect(describeStop({ actor: 'switchboard', reason: 'timed out' })).toBe('Stopped by Switchboard: timed out');
  });
});

describe('a run’s budget on its page', () => {
  it('shows a line for each limit set: used of allowed, what is left, the meter’s fill', () => {
    const lines = budgetLines(
      { maxTokens: 3000, maxToolCalls: null, maxRuns: 3, maxDurationMs: 4000 },
      { tokens: 3300, toolCalls: 9, runs: 1, durationMs: 1500 },
    );
    expect(lines.map((l) => [l.label, l.text, l.share])).toEqual([
      ['tokens', '3300 of 3000 (0 left)', 1],
      ['runs', '1 of 3 (2 left)', 1 / 3],
      ['time', '1.5 s of 4.0 s (2.5 s left)', 0.375],
    ]);
    expect(budgetLines({}, { tokens: 1, toolCalls: 1, runs: 1, durationMs: 1 })).toEqual([]);
  });

  it('shows the cost used of a cost limit, and an unknown use as "unknown" with an empty meter, never as 0', () => {
    const used = { tokens: 10, toolCalls: 0, runs: 1, durationMs: 1 };
    expect(budgetLines({ maxCost: 2 }, { ...used, cost: 0.5 }).map((l) => [l.label, l.text, l.share])).toEqual([['cost', '0.5 of 2 (1.5 left)', 0.25]]);
    expect(budgetLines({ maxCost: 2 }, used).map((l) => [l.label, l.text, l.used])).toEqual([['cost', 'unknown of 2 (unknown left)', undefined]]);
  });

  it('says which limit stopped a run and by how much', () => {
    expect(describeStop({ actor: 'budget', reason: 'budget_exceeded', limit: 'max_tokens', allowed: 3000, used: 3300 })).toBe(
      'Stopped by its budget: tokens 3300 of 3000',
    );
    expect(describeStop({ actor: 'budget', reason: 'budget_exceeded', cascadeFrom: 'r1', limit: 'max_duration_ms', allowed: 4000, used: 4236 })).toBe(
      'Stopped by the budget of run r1: time 4.2 s of 4.0 s',
    );
    expect(describeStop({ actor: 'budget', reason: 'budget_exceeded', budgetSessionId: 's1', limit: 'max_tool_calls', allowed: 10, used: 11 })).toBe(
      "Stopped by session s1's budget: tool calls 11 of 10",
    );
    expect(describeStop({ actor: 'budget', reason: 'budget_exceeded', limit: 'max_cost', allowed: 1.5, used: 1.51234 })).toBe(
      'Stopped by its budget: cost 1.5123 of 1.5',
    );
  });
});
