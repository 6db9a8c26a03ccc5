import { emptyStore, foldEvent, type RunStore, type RunStreamEvent } from './run-tree';
import { dropOldSteps, emptyTimeline, foldStep, plainReason, stepOfToolCall, stepText, type Timeline, timelineRows } from './timeline';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
let position = 0;

function event(streamId: string, type: string, data: unknown, atMs = 0): RunStreamEvent {
  position += 1;
  return { globalPosition: position, streamId, type, recordedAt: new Date(T0 + atMs).toISOString(), data };
}

function fold(events: RunStreamEvent[], store: RunStore = emptyStore(), timeline: Timeline = emptyTimeline()) {
  for (const e of events) {
    foldEvent(store, e);
    foldStep(timeline, store, e);
  }
  return { store, timeline, lines: timeline.steps.filter((s) => s.kind !== 'internal').map((s) => `${s.agent} ${stepText(s)}`) };
}

const started = (runId: string, agentId: string, prompt: string, parentRunId: string | null = null) =>
  event(`run-${runId}`, 'run.started', { runId, agentId, prompt, parentRunId, background: parentRunId !== null, depth: parentRunId ? 1 : 0, epoch: 1 });
const thread = (runId: string) => `session-sub-agent-${runId}`;

describe('the run timeline', () => {
  it('words a tool call as one step, with its duration, from its start and end', () => {
    const { lines, timeline } = fold([
      started('r1', 'code-reviewer', 'Review main.ts'),
      event(thread('r1'), 'cli.assistant.turn_start', { payload: {} }, 5),
      event(thread('r1'), 'cli.tool.execution_start', { payload: { toolCallId: 't1', toolName: 'view', arguments: { path: 'main.ts' } } }, 10),
      event(thread('r1'), 'cli.tool.execution_complete', { payload: { toolCallId: 't1', success: true, result: { content: '…' } } }, 22),
    ]);
    expect(lines).toEqual(['code-reviewer started on the task: “Review main.ts”', 'code-reviewer ran `view main.ts`, 12 ms']);
    const tool = timeline.steps.find((s) => s.kind === 'tool')!;
    // The raw events stay with the step they were read from.
    expect(tool.events.map((e) => e.type)).toEqual(['cli.tool.execution_start', 'cli.tool.execution_complete']);
    expect(tool.pending).toBe(false);
  });

  it('finds the step of a tool call a checkpoint names, and none once the page dropped it', () => {
    const { timeline } = fold([
      started('r1', 'writer', 'Write alpha.txt'),
      event(
        thread('r1'),
        'cli.tool.execution_start',
        { payload: { toolCallId: 'call_1_create', toolName: 'create', arguments: { path: 'alpha.txt' } } },
        10,
      ),
      event(thread('r1'), 'cli.tool.execution_complete', { payload: { toolCallId: 'call_1_create', success: true } }, 22),
      event(thread('r1'), 'cli.tool.execution_start', { payload: { toolCallId: 'call_2_view', toolName: 'view', arguments: { path: 'alpha.txt' } } }, 30),
    ]);
    expect(stepOfToolCall(timeline, 'call_1_create')).toMatchObject({ kind: 'tool', runId: 'r1', pending: false });
    expect(stepOfToolCall(timeline, 'call_2_view')).toMatchObject({ pending: true });
    expect(stepOfToolCall(timeline, 'call_unknown')).toBeUndefined();
    dropOldSteps(timeline, 1, 2);
    expect(stepOfToolCall(timeline, 'call_1_create')).toBeUndefined();
    expect(stepOfToolCall(timeline, 'call_2_view')).toMatchObject({ pending: true });
  });

  it('shows a steer on the agent it reached: the run’s own, or a CLI sub-agent inside it', () => {
    const { lines, timeline } = fold([
      started('r1', 'code-reviewer', 'Review main.ts'),
      event(
        thread('r1'),
        'session.steered',
        { message: 'Only main.ts, please', target: 'main', agentName: 'code-reviewer', steeredBy: 'console', runId: 'r1' },
        5,
      ),
      event(thread('r1'), 'subagent.started', { childSessionId: 'c1', toolCallId: 't9', agentName: 'checker' }, 6),
      event(thread('r1'), 'session.steered', { message: 'Be quick', target: 'subagent', subagentId: 'c1', agentName: 'checker', steeredBy: 'api' }, 7),
    ]);
    expect(lines).toEqual([
      'code-reviewer started on the task: “Review main.ts”',
      'code-reviewer was steered by you: “Only main.ts, please”',
      'code-reviewer handed work to its sub-agent `checker`',
      'checker was steered by you: “Be quick”',
    ]);
    expect(timeline.steps[1]).toMatchObject({ kind: 'message', runId: 'r1' });
  });

  it('shows a running tool as running, and a failed one with the reason', () => {
    const { lines } = fold([
      started('r1', 'builder', 'Build'),
      event(thread('r1'), 'cli.tool.execution_start', { payload: { toolCallId: 'a', toolName: 'bash', arguments: { command: 'npm test' } } }),
      event(thread('r1'), 'cli.tool.execution_start', { payload: { toolCallId: 'b', toolName: 'bash', arguments: { command: 'npm run lint' } } }),
      event(thread('r1'), 'cli.tool.execution_complete', { payload: { toolCallId: 'b', success: false, error: { message: 'exit 1' } } }, 1500),
    ]);
    expect(lines.slice(1)).toEqual(['builder is running `bash npm test`', 'builder ran `bash npm run lint`, 1.5 s, and it failed: exit 1']);
  });

  it('tells a permission a person was asked about from one the policy allowed', () => {
    const { lines, timeline } = fold([
      started('r1', 'builder', 'Build'),
      event(thread('r1'), 'permission.decided', {
        toolName: 'bash',
        arguments: { kind: 'shell', fullCommandText: 'rm -rf build' },
        outcome: 'approved',
        reason: 'approved by api',
      }),
      event(thread('r1'), 'permission.decided', { arguments: { kind: 'shell' }, outcome: 'denied', reason: 'denied: no decision within 1000 ms (X)' }),
      event(thread('r1'), 'permission.decided', {
        toolName: 'agent_run',
        arguments: { kind: 'custom-tool' },
        outcome: 'approved',
        reason: "tool agent_run is one of the session's own tools",
      }),
    ]);
    expect(lines.slice(1)).toEqual([
      'builder asked you to approve `bash rm -rf build`: approved by you',
      'builder asked you to approve `shell`: nobody answered in time, so it was denied',
    ]);
    expect(timeline.counts.get('approval')).toBe(2);
    // Switchboard's own tools are allowed without asking: bookkeeping, not a decision.
    expect(timeline.counts.get('internal')).toBe(1);
  });

  it('words a question and its answer as one step, and the run’s answer', () => {
    const { lines } = fold([
      started('r1', 'planner', 'Plan'),
      event(thread('r1'), 'user_input.requested', { agentName: 'planner', requestId: 'q1', arguments: { question: 'Which branch?' } }),
      event(thread('r1'), 'user_input.answered', {
        agentName: 'planner',
        arguments: { question: 'Which branch?' },
        result: { answer: 'main' },
        outcome: 'answered',
      }),
      event(thread('r1'), 'cli.assistant.message', { payload: { content: 'Looking at **main**.' } }),
      event('run-r1', 'run.completed', { runId: 'r1', epoch: 1, output: 'All\n\ngood.' }),
    ]);
    expect(lines.slice(1)).toEqual([
      'planner asked you: “Which branch?”, you answered “main”',
      'planner said: Looking at main.',
      'planner answered: All good.',
    ]);
  });

  it('names the parent that delegated, and drops the API how-to from an interruption', () => {
    const { lines } = fold([
      started('lead', 'lead', 'Lead the work'),
      started('child', 'worker', 'Work on part one', 'lead'),
      event('run-child', 'run.interrupted', {
        runId: 'child',
        epoch: 1,
        reason: 'Switchboard restarted while the run was running; resume it with agent_run {run_id} (POST /api/runs/:id/resume) or stop it',
      }),
      event('run-child', 'run.resumed', { runId: 'child', epoch: 2 }),
      event('run-child', 'run.stopped', { runId: 'child', epoch: 2, stoppedBy: { actor: 'api', reason: 'enough' }, forced: false }),
    ]);
    expect(lines).toEqual([
      'lead started on the task: “Lead the work”',
      'worker was given a task by lead (in the background): “Work on part one”',
      'worker was interrupted: Switchboard restarted while the run was running',
      'worker was resumed (its second launch)',
      'worker was stopped by an operator (API): enough',
    ]);
  });

  it('keeps the CLI’s bookkeeping as internal steps, hidden unless asked', () => {
    const { timeline } = fold([started('r1', 'a', 'p'), event(thread('r1'), 'cli.session.usage_info', { payload: {} })]);
    expect(timelineRows(timeline.steps, {}).filter((r) => r.kind === 'step')).toHaveLength(1);
    const internal = timelineRows(timeline.steps, { kind: 'internal' }).flatMap((r) => (r.kind === 'step' ? [stepText(r.step)] : []));
    expect(internal).toEqual(['reported context size']);
  });

  it('groups steps under their agent, narrows to a run, filters by kind and searches', () => {
    const { timeline } = fold([
      started('lead', 'lead', 'Lead'),
      event(thread('lead'), 'cli.tool.execution_start', { payload: { toolCallId: 'x', toolName: 'agent_run', arguments: { agent_id: 'worker' } } }),
      started('child', 'worker', 'Part one', 'lead'),
      event(thread('child'), 'cli.tool.execution_start', { payload: { toolCallId: 'y', toolName: 'view', arguments: { path: 'a.ts' } } }),
      event(thread('child'), 'cli.tool.execution_complete', { payload: { toolCallId: 'y', success: true } }),
      event(thread('lead'), 'cli.tool.execution_complete', { payload: { toolCallId: 'x', success: true } }),
    ]);
    const shape = (rows: ReturnType<typeof timelineRows>) => rows.map((r) => (r.kind === 'agent' ? `# ${r.agent}` : stepText(r.step)));
    expect(shape(timelineRows(timeline.steps, {}))).toEqual([
      '# lead',
      'started on the task: “Lead”',
      'ran `agent_run worker`, 0 ms',
      '# worker',
      'was given a task by lead (in the background): “Part one”',
      'ran `view a.ts`, 0 ms',
    ]);
    expect(shape(timelineRows(timeline.steps, { runId: 'child' }))).toEqual([
      '# worker',
      'was given a task by lead (in the background): “Part one”',
      'ran `view a.ts`, 0 ms',
    ]);
    expect(shape(timelineRows(timeline.steps, { kind: 'tool' }))).toEqual(['# lead', 'ran `agent_run worker`, 0 ms', '# worker', 'ran `view a.ts`, 0 ms']);
    expect(shape(timelineRows(timeline.steps, { search: 'A.TS' }))).toEqual(['# worker', 'ran `view a.ts`, 0 ms']);
    // The agent's name is searched too.
    expect(shape(timelineRows(timeline.steps, { search: 'worker', kind: 'run' }))).toEqual([
      '# worker',
      'was given a task by lead (in the background): “Part one”',
    ]);
  });

  it('says the answer once when the run’s last message was its answer', () => {
    const { lines, timeline } = fold([
      started('r1', 'writer', 'Write'),
      event(thread('r1'), 'cli.assistant.message', { payload: { content: 'Done: **3** files.' } }),
      event('run-r1', 'run.completed', { runId: 'r1', epoch: 1, output: 'Done: **3** files.' }),
    ]);
    expect(lines.slice(1)).toEqual(['writer answered: Done: 3 files.']);
    expect(timeline.steps.at(-1)!.events.map((e) => e.type)).toEqual(['cli.assistant.message', 'run.completed']);
  });

  it('says a reason without the how-to for API callers', () => {
    expect(plainReason("The Copilot CLI went away before it answered the run's session; resume the run to continue")).toBe(
      "The Copilot CLI went away before it answered the run's session",
    );
    expect(plainReason('the CLI died (agent_run {run_id}, POST /api/runs/:id/resume)')).toBe('the CLI died');
  });
});
