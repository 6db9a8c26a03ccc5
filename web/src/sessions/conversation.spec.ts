import { acceptsMessages, argumentsLine, conversationOf, duration, type SessionEventLike } from './conversation';
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
