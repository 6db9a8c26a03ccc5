import { foldEvents } from '../event-store';
import {
  endsCurrentTurn,
  evolveTurn,
  initialTurnState,
  isProgress,
  type RecordedEvent,
  type TurnOutcome,
  turnOutcome,
  type TurnState,
} from './turn-detection';

/** Recorded events of a run's session, as SessionLifecycle and the session commands write them. */
const sent: RecordedEvent = { type: 'session.message_sent', data: { prompt: 'Do the task.' } };
const cli = (type: string, payload: Record<string, unknown> = {}, agentId?: string): RecordedEvent => ({
  type: `cli.${type}`,
  data: { ...(agentId ? { agentId } : {}), payload },
});
const prompt = cli('user.message', { content: 'Do the task.' });
const idle = cli('session.idle');
const said = (content: unknown, agentId?: string) => cli('assistant.message', { content }, agentId);

const fold = (events: RecordedEvent[]): TurnState => foldEvents({ initialState: initialTurnState, evolve: evolveTurn }, events);
const outcomeOf = (events: RecordedEvent[]): TurnOutcome | undefined => turnOutcome(fold(events));

describe('turn detection (a pure fold over the run session’s recorded events)', () => {
  it('has no outcome before anything happened', () => {
    expect(turnOutcome(initialTurnState())).toBeUndefined();
    expect(outcomeOf([sent, prompt, said('working')])).toBeUndefined();
  });

  it("ends the turn on the main agent's idle after the prompt, with its last message as the output", () => {
    expect(outcomeOf([sent, prompt, said('FIRST'), cli('tool.execution_start', { toolName: 'grep' }), said('FINAL_ANSWER'), idle])).toEqual({
      kind: 'completed',
      output: 'FINAL_ANSWER',
    });
  });

  it('reads a turn as the real CLI 1.0.102 records it: the sub-agent’s work and answer are not the output (reference capture v3-sync-subagent)', () => {
    const task = '12d5d990-dc1f-460c-a607-45786efd4cdd';
    const recorded = [
      cli('session.start', { selectedModel: 'gpt-4.1' }),
      sent,
      cli('user.message', { content: 'Please ask the secret keeper for the alpha secret.' }),
      cli('system.message', { role: 'system' }),
      cli('assistant.turn_start', { turnId: '0' }),
      said(''),
      cli('tool.execution_start', { toolCallId: 'call_1_task', toolName: 'task' }),
      cli('subagent.started', { toolCallId: 'call_1_task', agentName: 'secret-keeper' }, task),
      cli('user.message', { content: 'Use lookup_secret to look up key alpha and report it.' }, task),
      cli('permission.requested', { requestId: '20acc4c1' }, task),
      said('', task),
      cli('tool.execution_start', { toolCallId: 'call_2_lookup_secret', toolName: 'lookup_secret' }, task),
      cli('external_tool.requested', { requestId: '67fe38c0' }, task),
      cli('tool.execution_complete', { success: true }, task),
      cli('assistant.turn_end', { turnId: '0' }, task),
      said('CHILD_DONE: secret is secret(alpha)=42 (tools seen: lookup_secret)', task),
      cli('subagent.completed', { toolCallId: 'call_1_task' }, task),
      cli('tool.execution_complete', { toolCallId: 'call_1_task', success: true }),
      cli('assistant.turn_end', { turnId: '0' }),
      cli('assistant.turn_start', { turnId: '1' }),
      said('PARENT_DONE: the subagent reported back.'),
      cli('assistant.turn_end', { turnId: '1' }),
      idle,
      cli('session.shutdown'),
    ];
    expect(outcomeOf(recorded)).toEqual({ kind: 'completed', output: 'PARENT_DONE: the subagent reported back.' });
  });

  it('ignores a CLI-native sub-agent: its messages, its prompt and its idle', () => {
    const events = [sent, cli('user.message', { content: 'sub task' }, 'task-1'), said('SUB_AGENT_TEXT', 'task-1'), cli('session.idle', {}, 'task-1')];
    expect(fold(events)).toMatchObject({ started: false, output: '' });
    expect(outcomeOf(events)).toBeUndefined();
    expect(outcomeOf([...events, prompt, said('MINE'), cli('session.idle', {}, 'task-1'), said('SUB', 'task-1'), idle])).toEqual({
      kind: 'completed',
      output: 'MINE',
    });
  });

  it('counts nothing before our prompt was taken: an idle or an interruption from creating or resuming the session', () => {
    const before = [cli('session.start'), prompt, said('OLD'), idle, { type: 'session.interrupted', data: { reason: 'earlier' } }];
    expect(outcomeOf(before)).toBeUndefined();
    expect(fold(before)).toEqual(initialTurnState());
  });

  it('does not end on the idle of an earlier (aborted) turn that arrives after the prompt was taken but before its user.message', () => {
    const staleIdle = [sent, idle];
    expect(outcomeOf(staleIdle)).toBeUndefined();
    expect(outcomeOf([...staleIdle, prompt, said('AFTER_STALE'), idle])).toEqual({ kind: 'completed', output: 'AFTER_STALE' });
  });

  it('keeps the last non-blank message: blank or non-text content does not replace it', () => {
    expect(outcomeOf([sent, prompt, said('ANSWER'), said('   '), said(''), said(42), cli('assistant.message', {}), idle])).toEqual({
      kind: 'completed',
      output: 'ANSWER',
    });
    expect(outcomeOf([sent, prompt, idle])).toEqual({ kind: 'completed', output: '' });
  });

  it("fails on the main agent's session.error with its message (or a default), ignoring a sub-agent's", () => {
    expect(outcomeOf([sent, prompt, cli('session.error', { message: 'model quota exhausted' })])).toEqual({
      kind: 'failed',
      error: 'model quota exhausted',
    });
    expect(outcomeOf([sent, prompt, cli('session.error', {})])).toEqual({ kind: 'failed', error: 'the Copilot CLI reported a session error' });
    expect(outcomeOf([sent, prompt, cli('session.error', { message: 'sub failed' }, 'task-1')])).toBeUndefined();
    // An error may end the turn before the prompt's user.message is even recorded.
    expect(outcomeOf([sent, cli('session.error', { message: 'refused' })])).toEqual({ kind: 'failed', error: 'refused' });
  });

  it('fails when the prompt was not taken, or the session was destroyed', () => {
    expect(outcomeOf([sent, { type: 'session.message_failed', data: { error: 'CLI said no' } }])).toEqual({ kind: 'failed', error: 'CLI said no' });
    expect(outcomeOf([sent, { type: 'session.message_failed', data: {} }])).toEqual({
      kind: 'failed',
      error: 'the Copilot CLI did not take the prompt',
    });
    expect(outcomeOf([sent, prompt, { type: 'session.destroyed', data: { reason: 'api' } }])).toEqual({
      kind: 'failed',
      error: "the run's session was destroyed",
    });
  });

  it('is interrupted with the reason when the session is (the CLI went away)', () => {
    expect(outcomeOf([sent, prompt, { type: 'session.interrupted', data: { reason: 'Copilot CLI exited', wasRunning: true } }])).toEqual({
      kind: 'interrupted',
      reason: 'Copilot CLI exited',
    });
    expect(outcomeOf([sent, { type: 'session.interrupted', data: {} }])).toEqual({ kind: 'interrupted', reason: 'the session was interrupted' });
  });

  it('does not end the watched turn on an abort record: the stop that asked for it cancels the launch', () => {
    expect(outcomeOf([sent, prompt, said('partial'), cli('abort', { reason: 'user' })])).toBeUndefined();
  });

  it('keeps the first outcome: what is recorded after it changes nothing', () => {
    const ended = fold([sent, prompt, said('DONE'), idle]);
    expect(evolveTurn(ended, said('LATER'))).toBe(ended);
    expect(evolveTurn(ended, { type: 'session.destroyed', data: {} })).toBe(ended);
    expect(turnOutcome(ended)).toEqual({ kind: 'completed', output: 'DONE' });
  });

  it('reads malformed recorded data without trusting its shape', () => {
    const odd: RecordedEvent[] = [
      sent,
      { type: 'cli.user.message', data: { agentId: '', payload: 'not an object' } },
      { type: 'cli.assistant.message', data: { agentId: 7, payload: [{ content: 'x' }] } },
      { type: 'cli.assistant.message', data: { payload: { content: 'OK' } } },
      { type: 'cli.session.idle', data: {} },
    ];
    // An empty or ill-typed agentId is the main agent's; a payload that is no object has no content.
    expect(outcomeOf(odd)).toEqual({ kind: 'completed', output: 'OK' });
  });

  it('knows what ends whatever turn is current (what a stop waits for after session.abort)', () => {
    expect(endsCurrentTurn(idle)).toBe(true);
    expect(endsCurrentTurn(cli('abort', { reason: 'user' }))).toBe(true);
    expect(endsCurrentTurn({ type: 'session.interrupted', data: { reason: 'gone' } })).toBe(true);
    expect(endsCurrentTurn(cli('session.idle', {}, 'task-1'))).toBe(false);
    expect(endsCurrentTurn(cli('abort', {}, 'task-1'))).toBe(false);
    expect(endsCurrentTurn(said('text'))).toBe(false);
    expect(endsCurrentTurn(sent)).toBe(false);
  });

  it("forwards the agents' messages and tool starts as progress, nothing else", () => {
    expect([said('x'), said('y', 'task-1'), cli('tool.execution_start', { toolName: 'grep' }), idle, prompt, sent].map(isProgress)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });
});
