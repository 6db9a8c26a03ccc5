import {
  acceptsMessages,
  argumentsLine,
  automaticPermissionCount,
  conversationOf,
  duration,
  type SessionEventLike,
  steerTargetsOf,
  visibleItems,
} from './conversation';
import { budgetLines, sessionPolicyOf } from './session-policy';
import { subAgentChoices } from './team-choices';

// Events shaped as the real Copilot CLI 1.0.x (protocol 3) and the service record them (a team lead
// delegating with the task tool, as in test/e2e/agent-team-delegation.e2e-spec.ts).
let position = 0;
function event(type: string, data: Record<string, unknown>, at = '2026-01-10T12:00:00.000Z'): SessionEventLike {
  position += 1;
  return { type, streamPosition: position, recordedAt: at, data };
}
const cli = (type: string, payload: Record<string, unknown>, extra: Record<string, unknown> = {}, timestamp = '2026-01-10T12:00:00.000Z') =>
  event(`cli.${type}`, { ...extra, timestamp, payload });

const CHILD = 'child-1';

function delegation(): SessionEventLike[] {
  position = 0;
  return [
    event('session.created', { sessionId: 's1', config: {} }),
    event('session.started', { protocolVersion: 3 }),
    event('session.message_sent', { prompt: 'Please review.' }),
    cli('user.message', { content: 'Please review.' }),
    cli('assistant.message', { messageId: 'm1', content: '', toolRequests: [{}] }),
    cli(
      'tool.execution_start',
      { toolCallId: 'call_task', toolName: 'task', arguments: { agent_type: 'code-reviewer', prompt: 'Review the change.' } },
      {},
      '2026-01-10T12:00:01.000Z',
    ),
    event('subagent.started', { childSessionId: CHILD, toolCallId: 'call_task', agentName: 'code-reviewer', agentDisplayName: 'Code Reviewer' }),
    cli('user.message', { content: 'Review the change.' }, { agentId: CHILD }),
    cli('tool.execution_start', { toolCallId: 'c-view', toolName: 'view', arguments: { path: 'a.ts' } }, { agentId: CHILD }, '2026-01-10T12:00:01.100Z'),
    event('permission.decided', {
      via: 'permission.request',
      parentSessionId: 's1',
      childSessionId: CHILD,
      agentName: 'code-reviewer',
      arguments: { kind: 'read', path: 'a.ts' },
      outcome: 'approved',
      latencyMs: 1.5,
    }),
    cli(
      'tool.execution_complete',
      { toolCallId: 'c-view', success: true, result: { content: 'file text' } },
      { agentId: CHILD },
      '2026-01-10T12:00:01.350Z',
    ),
    event('tool_call.denied', {
      via: 'external_tool.requested',
      parentSessionId: 's1',
      childSessionId: CHILD,
      agentName: 'code-reviewer',
      toolCallId: 'c-deploy',
      toolName: 'deploy',
      arguments: { env: 'prod' },
      outcome: 'denied',
      result: "Tool 'deploy' is not supported",
      reason: 'not in the allowlist of agent code-reviewer',
      latencyMs: 0.4,
    }),
    cli('assistant.message', { messageId: 'm2', content: 'REVIEW_DONE: looks good' }, { agentId: CHILD }),
    event('subagent.completed', { childSessionId: CHILD, toolCallId: 'call_task', agentName: 'code-reviewer', totalToolCalls: 2, durationMs: 132 }),
    cli(
      'tool.execution_complete',
      { toolCallId: 'call_task', success: true, result: { content: 'REVIEW_DONE: looks good' } },
      {},
      '2026-01-10T12:00:02.000Z',
    ),
    cli('assistant.message_delta', { messageId: 'm3', deltaContent: 'LEAD' }),
    cli('assistant.message_delta', { messageId: 'm3', deltaContent: '_DO' }),
  ];
}

describe('conversation of a session (events to bubbles and steps)', () => {
  it('shows the prompt, the sub-agent launch with its own steps, and the answer streaming in', () => {
    const { items } = conversationOf(delegation());
    expect(items.map((i) => i.kind)).toEqual(['user', 'subagent', 'assistant']);
    expect(items[0]).toMatchObject({ kind: 'user', text: 'Please review.' });

    const launch = items[1];
    if (launch.kind !== 'subagent') throw new Error('not a sub-agent step');
    expect(launch).toMatchObject({
      agentName: 'code-reviewer',
      displayName: 'Code Reviewer',
      prompt: 'Review the change.',
      status: 'completed',
      answer: 'REVIEW_DONE: looks good',
      durationMs: 132,
      totalToolCalls: 2,
    });
    // The sub-agent's tool call (latency from the CLI's timestamps), its permission and its allowlist refusal.
    expect(launch.steps).toEqual([
      expect.objectContaining({ kind: 'tool', toolName: 'view', agent: 'code-reviewer', status: 'succeeded', result: 'file text', latencyMs: 250 }),
      expect.objectContaining({ kind: 'permission', permission: 'read', approved: true, agent: 'code-reviewer', latencyMs: 1.5 }),
      expect.objectContaining({
        kind: 'tool',
        toolName: 'deploy',
        status: 'denied',
        reason: 'not in the allowlist of agent code-reviewer',
        arguments: { env: 'prod' },
      }),
    ]);
    expect(items[2]).toMatchObject({ kind: 'assistant', text: 'LEAD_DO', streaming: true });
  });

  it("replaces the streamed text with the final message; a sub-agent's idle adds nothing", () => {
    const events = [
      ...delegation(),
      cli('assistant.message', { messageId: 'm3', content: 'LEAD_DONE' }),
      cli('session.idle', {}, { agentId: CHILD }), // a sub-agent's idle does not end the turn
    ];
    expect(conversationOf(events).items.map((i) => i.kind)).toEqual(['user', 'subagent', 'assistant']);
    position = events.length;
    const done = conversationOf([...events, cli('session.idle', {})]);
    expect(done.items.at(-1)).toMatchObject({ kind: 'assistant', text: 'LEAD_DONE', streaming: false });
    expect(done.lastPosition).toBe(events.length + 1);
    // The status comes from the service (Session.status); the composer reads it so.
    expect(acceptsMessages('idle')).toBe(true);
    expect(acceptsMessages('running')).toBe(false);
  });

  it('keeps an empty tool-request message out and a main-agent tool call as its own step', () => {
    position = 0;
    const { items } = conversationOf([
      event('session.message_sent', { prompt: 'ls' }),
      cli('assistant.message', { messageId: 'a', content: '   ' }),
      cli('tool.execution_start', { toolCallId: 't1', toolName: 'bash', arguments: { command: 'ls' } }),
      cli('tool.execution_complete', { toolCallId: 't1', success: false, error: { message: 'exit 2' } }),
    ]);
    expect(items[1]).not.toHaveProperty('agent'); // the main agent's own call
    expect(items).toEqual([
      expect.objectContaining({ kind: 'user' }),
      expect.objectContaining({ kind: 'tool', toolName: 'bash', status: 'failed', reason: 'exit 2' }),
    ]);
  });

  it('turns a start refused for an ineligible sub-agent (FR-5) into an error naming the agent', () => {
    position = 0;
    const problems = [{ id: 'reviewer', reason: 'reviewer has custom tools (deploy); remove them' }];
    const { items } = conversationOf([
      event('session.created', { sessionId: 's1' }),
      event('session.start_failed', { error: 'Session s1 cannot start with its agents: …', problems }),
    ]);
    expect(items).toEqual([expect.objectContaining({ kind: 'error', action: 'start', problems })]);
    const resumed = conversationOf([event('session.resume_failed', { error: 'no', problems: [{ id: 'x', reason: 'gone' }, { bad: true }] })]);
    expect(resumed.items[0]).toMatchObject({ kind: 'error', action: 'resume', problems: [{ id: 'x', reason: 'gone' }] });
  });

  it('shows a question with who asked it, then its answer; ask_user itself is not a tool step', () => {
    position = 0;
    const { items } = conversationOf([
      cli('tool.execution_start', { toolCallId: 'q', toolName: 'ask_user', arguments: { question: 'Ship?' } }),
      event('user_input.requested', { requestId: 'r1', agentName: 'keeper', arguments: { question: 'Ship?', choices: ['yes'] }, outcome: 'pending' }),
      event('user_input.requested', { requestId: 'r2', agentName: 'keeper', arguments: { question: 'Ship?', choices: ['yes'] }, outcome: 'pending' }),
      // As the service records it: the question and who asked, no request id.
      event('user_input.answered', {
        agentName: 'keeper',
        arguments: { question: 'Ship?' },
        outcome: 'answered',
        result: { answer: 'yes', wasFreeform: false },
      }),
    ]);
    expect(items).toEqual([
      expect.objectContaining({ kind: 'question', requestId: 'r1', agent: 'keeper', question: 'Ship?', outcome: 'answered', answer: 'yes' }),
      expect.objectContaining({ kind: 'question', requestId: 'r2', outcome: 'pending' }),
    ]);
  });

  it('notes interruptions, resumes, team changes and the end of the session', () => {
    position = 0;
    const { items } = conversationOf([
      event('session.interrupted', { reason: 'the Copilot CLI exited', wasRunning: false }),
      event('session.resumed', { cliGeneration: 2 }),
      event('session.sub_agents_changed', { subAgents: [] }),
      event('session.destroyed', {}),
    ]);
    expect(items.map((i) => (i.kind === 'notice' ? i.text : i.kind))).toEqual([
      'Interrupted: the Copilot CLI exited',
      'Session resumed.',
      'Sub-agents changed to none (in effect from the next resume).',
      'Session destroyed.',
    ]);
  });

  it('says durations and arguments the short way', () => {
    expect(duration(230)).toBe('230 ms');
    expect(duration(4200)).toBe('4.2 s');
    expect(duration(185_000)).toBe('3 min 5 s');
    expect(duration(undefined)).toBe('');
    expect(argumentsLine({ a: 'x'.repeat(200) }, 20)).toHaveLength(20);
    expect(argumentsLine(undefined)).toBe('');
  });
});

describe('Sub-Agents selector choices (FR-3)', () => {
  const agent = (id: string, name: string) => ({ id, name, icon: '' });
  const eligible = [agent('writer', 'Doc Writer'), agent('reviewer', 'Code Reviewer'), agent('analyst', 'Analyst')];
  const known = new Map([...eligible, agent('lead', 'Lead'), agent('broken', 'Broken')].map((a) => [a.id, a]));

  it("lists the agent's team first in its order, every other eligible agent after by name, never the session's own agent", () => {
    const choices = subAgentChoices({ ownAgentId: 'lead', team: ['writer', 'reviewer'], selected: ['reviewer'], eligible, problems: [], known });
    expect(choices.map((c) => c.value)).toEqual(['writer', 'reviewer', 'analyst']);
    expect(choices.every((c) => !c.problem)).toBe(true);
    const withSelf = subAgentChoices({ ownAgentId: 'writer', team: [], selected: [], eligible, problems: [], known });
    expect(withSelf.map((c) => c.value)).toEqual(['analyst', 'reviewer']);
  });

  it('keeps a selected agent that is no longer eligible, flagged with the reason, until it is unselected', () => {
    const problems = [{ id: 'broken', reason: 'broken has custom tools (deploy)' }];
    const selected = subAgentChoices({ ownAgentId: 'lead', team: ['broken'], selected: ['broken', 'ghost'], eligible, problems, known });
    expect(selected.slice(0, 2)).toEqual([
      expect.objectContaining({ value: 'broken', label: 'Broken', problem: 'broken has custom tools (deploy)' }),
      expect.objectContaining({ value: 'ghost', problem: 'no agent with id ghost exists' }),
    ]);
    const unselected = subAgentChoices({ ownAgentId: 'lead', team: ['broken'], selected: [], eligible, problems, known });
    expect(unselected.map((c) => c.value)).toEqual(['analyst', 'reviewer', 'writer']);
  });
});

describe('conversationOf on the newest pages of a long session', () => {
  it('folds a range that begins mid-stream: its items and its last position, no status of its own', () => {
    // Positions 5,001 on: no session.created, only the end of a turn.
    const tail: SessionEventLike[] = [
      {
        type: 'cli.assistant.message',
        streamPosition: 5001,
        recordedAt: '2026-01-10T12:00:00.000Z',
        data: { payload: { messageId: 'm9', content: 'Done.' } },
      },
      { type: 'cli.session.idle', streamPosition: 5002, recordedAt: '2026-01-10T12:00:01.000Z', data: { payload: {} } },
    ];
    const conversation = conversationOf(tail);
    expect(conversation).toEqual({ lastPosition: 5002, items: [expect.objectContaining({ kind: 'assistant', text: 'Done.' })] });
  });
});

// A lead delegating with Switchboard's agent_run (delegation: true), as the service records it: the CLI's
// tool events, the policy's automatic permission of the tool, the routed call and the run's own events.
function agentRun(background: boolean): SessionEventLike[] {
  position = 0;
  const args = { agent_id: 'code-reviewer', prompt: 'Review **main.ts**', background };
  return [
    event('session.message_sent', { prompt: 'Get it reviewed.' }),
    cli('tool.execution_start', { toolCallId: 'call_run', toolName: 'agent_run', arguments: args }, {}, '2026-01-10T12:00:00.000Z'),
    event('permission.decided', {
      via: 'permission.request',
      parentSessionId: 's1',
      toolName: 'agent_run',
      arguments: { kind: 'custom-tool', toolName: 'agent_run', toolDescription: 'Delegate a task to another agent, …' },
      outcome: 'approved',
      reason: "tool agent_run is one of the session's own tools",
      latencyMs: 0.2,
    }),
    ...(background
      ? []
      : [event('run.progress', { runId: 'run-1', agentId: 'code-reviewer', kind: 'tool', toolName: 'view' }, '2026-01-10T12:00:01.000Z')]),
    event(
      'tool_call.routed',
      {
        via: 'external_tool.requested',
        parentSessionId: 's1',
        toolCallId: 'call_run',
        toolName: 'agent_run',
        arguments: args,
        outcome: 'success',
        result: JSON.stringify(
          background
            ? { run_id: 'run-1', agent_id: 'code-reviewer', status: 'running' }
            : { run_id: 'run-1', agent_id: 'code-reviewer', status: 'completed', output: 'LGTM' },
        ),
        latencyMs: 3,
      },
      '2026-01-10T12:00:04.000Z',
    ),
    cli('tool.execution_complete', { toolCallId: 'call_run', success: true, result: { content: '{}' } }, {}, '2026-01-10T12:00:04.000Z'),
  ];
}

describe('delegations (agent_run) and the automatic permissions of the session’s own tools', () => {
  it('shows a foreground agent_run as one run card: agent, task, run id (from its progress first), status and duration', () => {
    const events = agentRun(false);
    const upToProgress = conversationOf(events.slice(0, 4)).items;
    expect(upToProgress.find((i) => i.kind === 'run')).toMatchObject({ kind: 'run', runId: 'run-1', status: 'running', agentId: 'code-reviewer' });

    const { items } = conversationOf(events);
    expect(items.map((i) => i.kind)).toEqual(['user', 'run', 'permission']);
    expect(items[1]).toMatchObject({
      kind: 'run',
      agentId: 'code-reviewer',
      task: 'Review **main.ts**',
      runId: 'run-1',
      status: 'completed',
      output: 'LGTM',
      durationMs: 4000,
      background: false,
    });
    expect(items.some((i) => i.kind === 'tool')).toBe(false);
  });

  it('follows a background run to its end through run.ended on the session', () => {
    const events = agentRun(true);
    expect(conversationOf(events).items[1]).toMatchObject({ kind: 'run', runId: 'run-1', status: 'running', background: true });
    const ended = conversationOf([
      ...events,
      event('run.ended', { runId: 'run-1', agentId: 'code-reviewer', status: 'failed', error: 'budget_exceeded' }, '2026-01-10T12:00:09.000Z'),
    ]);
    expect(ended.items[1]).toMatchObject({ kind: 'run', status: 'failed', error: 'budget_exceeded', durationMs: 9000 });
  });

  it('links a foreground run from its start (the call it names), and a stopped turn names the background runs that go on', () => {
    position = 0;
    const start = (id: string, agent: string, background: boolean) =>
      cli('tool.execution_start', { toolCallId: id, toolName: 'agent_run', arguments: { agent_id: agent, prompt: 'Do it', background } });
    const events = [
      event('session.message_sent', { prompt: 'Go.' }),
      start('call_a', 'writer', false),
      start('call_b', 'writer', false),
      start('call_bg', 'checker', true),
      event('tool_call.routed', { toolCallId: 'call_bg', toolName: 'agent_run', outcome: 'success', result: '{"run_id":"run-bg","status":"running"}' }),
      // The second call's run said it started first: it is that call's card, not the agent's first waiting one.
      event('run.progress', { runId: 'run-b', agentId: 'writer', kind: 'started', toolCallId: 'call_b' }),
      event('session.abort_requested', {}),
      event('run.ended', { runId: 'run-b', agentId: 'writer', status: 'stopped', error: 'stopped by api: the turn that started it was stopped' }),
    ];
    const { items } = conversationOf(events);
    const cards = items.filter((i) => i.kind === 'run');
    expect(cards.map((c) => [c.toolCallId, c.runId, c.status])).toEqual([
      ['call_a', undefined, 'starting'],
      ['call_b', 'run-b', 'stopped'],
      ['call_bg', 'run-bg', 'running'],
    ]);
    expect(items.find((i) => i.kind === 'notice')).toEqual(
      expect.objectContaining({
        text: 'Stop requested: the agent stops its turn. The runs it waits on stop with it.',
        runsText: 'Background runs go on:',
        runs: [{ runId: 'run-bg', agentId: 'checker' }],
      }),
    );
  });

  it('marks a refused delegation as refused with the reason', () => {
    position = 0;
    const { items } = conversationOf([
      event('tool_call.routed', {
        toolCallId: 'c',
        toolName: 'agent_run',
        arguments: { agent_id: 'ghost', prompt: 'x' },
        outcome: 'failure',
        result: JSON.stringify({
          run_id: null,
          agent_id: 'ghost',
          status: 'refused',
          error: { code: 'not_found', message: 'Agent ghost does not exist' },
        }),
      }),
    ]);
    expect(items).toEqual([expect.objectContaining({ kind: 'run', agentId: 'ghost', status: 'refused', error: 'Agent ghost does not exist' })]);
  });

  it('hides the automatic approval of agent_run unless asked, but never a person’s or a refusal', () => {
    const events = [
      ...agentRun(false),
      event('permission.decided', { arguments: { kind: 'shell', fullCommandText: 'ls' }, outcome: 'approved', reason: 'approved in the console' }),
      event('permission.decided', { arguments: { kind: 'custom-tool', toolName: 'deploy' }, outcome: 'approved', reason: 'approved in the console' }),
      event('permission.decided', {
        arguments: { kind: 'custom-tool', toolName: 'x' },
        outcome: 'denied',
        reason: 'tool x is not registered on the session',
      }),
    ];
    const { items } = conversationOf(events);
    expect(automaticPermissionCount(items)).toBe(1);
    const hidden = visibleItems(items, { automaticPermissions: false, openQuestions: new Set() });
    expect(hidden.filter((i) => i.kind === 'permission').map((i) => (i.kind === 'permission' ? (i.toolName ?? i.permission) : ''))).toEqual([
      'shell',
      'deploy',
      'x',
    ]);
    expect(visibleItems(items, { automaticPermissions: true, openQuestions: new Set() })).toHaveLength(items.length);
  });

  it('hides the same approval made for a sub-agent inside its launch step', () => {
    const events = [
      ...delegation(),
      event('permission.decided', {
        childSessionId: CHILD,
        agentName: 'code-reviewer',
        arguments: { kind: 'custom-tool', toolName: 'lookup' },
        outcome: 'approved',
        reason: "tool lookup is one of the session's own tools",
      }),
    ];
    const { items } = conversationOf(events);
    const launch = (list: typeof items) => list.find((i) => i.kind === 'subagent');
    expect(launch(items)).toMatchObject({ steps: expect.arrayContaining([expect.objectContaining({ kind: 'permission', automatic: true })]) });
    const shown = launch(visibleItems(items, { automaticPermissions: false, openQuestions: new Set() }));
    expect(shown?.kind === 'subagent' && shown.steps.some((s) => s.kind === 'permission' && s.automatic)).toBe(false);
  });
});

describe('the chat shows a question once and notes a stop', () => {
  it('leaves an open question to its answer card, and shows it as a step once answered or when no card shows it', () => {
    position = 0;
    const { items } = conversationOf([
      event('user_input.requested', { requestId: 'r1', arguments: { question: 'Ship?' }, outcome: 'pending' }),
      event('user_input.requested', { requestId: 'r2', arguments: { question: 'Tag?' }, outcome: 'pending' }),
      event('user_input.answered', { requestId: 'r2', arguments: { question: 'Tag?' }, outcome: 'answered', result: { answer: 'v2' } }),
    ]);
    const shown = visibleItems(items, { automaticPermissions: false, openQuestions: new Set(['r1']) });
    expect(shown).toEqual([expect.objectContaining({ kind: 'question', requestId: 'r2', answer: 'v2' })]);
    expect(visibleItems(items, { automaticPermissions: false, openQuestions: new Set() })).toHaveLength(2);
  });

  it('shows a steer where it landed: the main agent in the conversation, a sub-agent under its launch, with who sent it', () => {
    const events = delegation().slice(0, 7);
    const steers = [
      event('session.steered', { message: 'Only a.ts', target: 'subagent', subagentId: CHILD, agentName: 'code-reviewer', steeredBy: 'console' }),
      event('session.steered', { message: 'Be brief', target: 'main', agentName: 'lead', steeredBy: 'api' }),
      event('session.steer_failed', { error: 'the CLI went away', target: 'main' }),
    ];
    const { items } = conversationOf([...events, ...steers]);
    const launch = items.find((i) => i.kind === 'subagent');
    expect(launch?.kind === 'subagent' && launch.steps.filter((st) => st.kind === 'steer')).toEqual([
      expect.objectContaining({ kind: 'steer', text: 'Only a.ts', agentName: 'code-reviewer', target: 'subagent', by: 'console' }),
    ]);
    expect(items.at(-1)).toEqual(
      expect.objectContaining({ kind: 'steer', text: 'Be brief', agentName: 'lead', target: 'main', by: 'api', failed: 'the CLI went away' }),
    );
    // Who the steer box offers: the main agent, then the sub-agent still running.
    expect(steerTargetsOf(items, 'Lead')).toEqual([
      { subagentId: '', label: 'Lead' },
      { subagentId: CHILD, label: 'sub-agent Code Reviewer' },
    ]);
    expect(steerTargetsOf(conversationOf(delegation()).items, 'Lead')).toEqual([{ subagentId: '', label: 'Lead' }]);
  });

  it('says a stop was asked for', () => {
    position = 0;
    expect(conversationOf([event('session.abort_requested', {})]).items).toEqual([
      expect.objectContaining({ kind: 'notice', text: 'Stop requested: the agent stops its turn.' }),
    ]);
  });
});

describe('the side panel’s delegation, permission policy and budget', () => {
  it('reads them off the stored config, delegation from the flag or the agent_run tool', () => {
    expect(
      sessionPolicyOf({ delegation: true, permissionPolicy: { allowKinds: ['read'], askKinds: ['shell'], askTools: ['deploy'], approveOwnTools: true } }),
    ).toEqual({
      delegation: true,
      allowKinds: ['read'],
      askKinds: ['shell'],
      askTools: ['deploy'],
      approveOwnTools: true,
    });
    expect(sessionPolicyOf({ tools: [{ name: 'agent_run' }], permissionPolicy: { allowKinds: [], approveOwnTools: false } })).toMatchObject({
      delegation: true,
      approveOwnTools: false,
    });
    expect(sessionPolicyOf(null)).toMatchObject({ delegation: false, allowKinds: [], askKinds: [] });
  });

  it('says each limit the budget has with what is used of it', () => {
    expect(
      budgetLines({
        limits: { maxTokens: 50_000, maxRuns: 3, maxDurationMs: 120_000 },
        used: { tokens: 1200, toolCalls: 4, runs: 1, durationMs: 30_500 },
      }),
    ).toEqual(['tokens: 1,200 of 50,000', 'runs: 1 of 3', 'time: 31 s of 120 s']);
  });

  it('says the cost used of a cost limit, and "unknown" rather than 0 when the use is not known', () => {
    const limits = { maxCost: 2.5 };
    expect(budgetLines({ limits, used: { tokens: 1200, toolCalls: 4, runs: 1, durationMs: 30_500, cost: 0.1234 } })).toEqual(['cost: 0.1234 of 2.5']);
    expect(budgetLines({ limits, used: { tokens: 1200, toolCalls: 4, runs: 1, durationMs: 30_500 } })).toEqual(['cost: unknown of 2.5']);
  });
});
