import type { RecordedTrace } from '../common';
import { foldEvents } from '../event-store';
import type { CustomAgentConfig, SessionConfig } from './session-config';
import { type SessionCommand, type SessionState, sessionDecider } from './session.decider';
import type { SessionEvent } from './session.events';
import { SessionNotFoundError, SessionNotLiveError, SessionStateError, SubagentNotFoundError } from './session.errors';

/** given(past events).when(command).then(new events | error), against the Decider object itself. */
function given(...history: SessionEvent[]) {
  const state = foldEvents(sessionDecider, history);
  return {
    state,
    when(command: SessionCommand) {
      const run = () => sessionDecider.decide(command, state);
      return {
        then: (expected: SessionEvent[]) => expect(run()).toEqual(expected),
        thenThrows(errorClass: new (...args: never[]) => Error, message: string) {
          expect(run).toThrow(errorClass);
          expect(run).toThrow(message);
        },
      };
    },
  };
}

const id = 's-1';
const config: SessionConfig = { model: 'gpt-5', tools: [], customAgents: [], permissionPolicy: { allowKinds: [], approveOwnTools: true }, subAgents: [] };
const team: CustomAgentConfig[] = [{ name: 'reviewer', prompt: 'review' }];
const created: SessionEvent = { type: 'session.created', data: { sessionId: id, config } };
const started: SessionEvent = { type: 'session.started', data: { protocolVersion: 3, cliVersion: '1.0', teamAgents: [] } };
const sent: SessionEvent = { type: 'session.message_sent', data: { prompt: 'hi' } };
const idle = (agentId?: string): SessionEvent => ({ type: 'cli.session.idle', data: { ...(agentId ? { agentId } : {}), payload: {} } });
const interrupted: SessionEvent = { type: 'session.interrupted', data: { reason: 'The Copilot CLI exited', wasRunning: false } };
const destroyed: SessionEvent = { type: 'session.destroyed', data: { reason: 'done' } };
const startFailed: SessionEvent = { type: 'session.start_failed', data: { error: 'boom' } };
const resumed = (cliGeneration: number, instanceId = 'instance-1'): SessionEvent => ({
  type: 'session.resumed',
  data: { cliGeneration, instanceId, teamAgents: team },
});
const send = (onCurrentCli = true): SessionCommand => ({ type: 'SendMessage', sessionId: id, prompt: 'hi', reminders: [], onCurrentCli });
const resume = (cliGeneration: number, createdInCli = false, instanceId = 'instance-1'): SessionCommand => ({
  type: 'ResumeSession',
  sessionId: id,
  cliGeneration,
  instanceId,
  protocolVersion: 3,
  cliVersion: '1.0',
  teamAgents: team,
  createdInCli,
});

describe('sessionDecider', () => {
  describe('evolve: the status every reader (live session, read model) sees', () => {
    it.each<[string, SessionEvent[], string, string | undefined]>([
      ['created', [created], 'starting', undefined],
      ['started', [created, started], 'active', undefined],
      ['start failed', [created, startFailed], 'failed', 'boom'],
      ['message sent', [created, started, sent], 'running', undefined],
      ['the main agent idle', [created, started, sent, idle()], 'idle', undefined],
      ['a sub-agent idle (the turn goes on)', [created, started, sent, idle('reviewer')], 'running', undefined],
      ['message failed', [created, started, sent, { type: 'session.message_failed', data: { error: 'refused' } }], 'idle', 'refused'],
      ['interrupted', [created, started, sent, interrupted], 'interrupted', 'The Copilot CLI exited'],
      ['a late idle after the interrupt', [created, started, interrupted, idle()], 'interrupted', 'The Copilot CLI exited'],
      ['resumed', [created, started, interrupted, resumed(2)], 'idle', undefined],
      ['resume failed', [created, started, interrupted, { type: 'session.resume_failed', data: { error: 'team' } }], 'interrupted', 'team'],
      ['destroyed', [created, started, destroyed], 'destroyed', 'done'],
      ['destroyed without a reason', [created, { type: 'session.destroyed', data: {} }], 'destroyed', undefined],
    ])('%s', (_name, history, status, reason) => {
      const { state } = given(...history);
      expect([state.status, state.statusReason]).toEqual([status, reason]);
    });

    it('records the team, whether the CLI has it, and sub-agent changes; other contexts events change nothing', () => {
      const history: SessionEvent[] = [
        created,
        { type: 'session.started', data: { protocolVersion: 3, teamAgents: team } },
        { type: 'session.sub_agents_changed', data: { subAgents: ['reviewer'] } },
      ];
      // Another context's event on the same stream, as the store hands it over.
      const runEnded = { type: 'run.ended', data: { runId: 'r' } };
      const state = [runEnded].reduce<SessionState>((s, e) => sessionDecider.evolve(s, e as SessionEvent), foldEvents(sessionDecider, history));
      expect(state).toMatchObject({ status: 'active', cliCreated: true, teamAgents: team, config: { ...config, subAgents: ['reviewer'] } });
      expect(given(created).state.cliCreated).toBe(false);
    });
  });

  describe('create and its outcome', () => {
    it('creates a session that does not exist, and refuses one that does', () => {
      given().when({ type: 'CreateSession', sessionId: id, config }).then([created]);
      given(created).when({ type: 'CreateSession', sessionId: id, config }).thenThrows(SessionStateError, `Session ${id} already exists`);
    });

    it('records the start, unless the session was destroyed while the CLI created it', () => {
      const command: SessionCommand = { type: 'RecordStart', sessionId: id, protocolVersion: 3, cliVersion: '1.0', teamAgents: [] };
      given(created).when(command).then([started]);
      given(created, destroyed).when(command).thenThrows(SessionNotLiveError, `Session ${id} is destroyed (done); create a new session`);
    });

    it('records a failed start with its problems, and nothing on a session already over', () => {
      const problems = [{ id: 'x', reason: 'unknown agent x' }];
      given(created)
        .when({ type: 'RecordStartFailure', sessionId: id, error: 'bad team', problems })
        .then([{ type: 'session.start_failed', data: { error: 'bad team', problems } }]);
      given(created, destroyed).when({ type: 'RecordStartFailure', sessionId: id, error: 'late' }).then([]);
    });
  });

  describe('send message', () => {
    it('records the message and the reminders it carries', () => {
      given(created, started)
        .when({
          type: 'SendMessage',
          sessionId: id,
          prompt: 'hi',
          reminders: [{ kind: 'runs', text: 'run r ended', data: { runIds: ['r'] } }],
          onCurrentCli: true,
        })
        .then([sent, { type: 'session.reminded', data: { kind: 'runs', text: 'run r ended', runIds: ['r'] } }]);
      given(created, started, sent).when(send()).then([sent]);
    });

    it("records the turn's trace, and the state keeps the last one through idle, interrupt and resume (issue 28)", () => {
      const first = { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), parentSpanId: 'c'.repeat(16) };
      const second = { traceId: 'd'.repeat(32), spanId: 'e'.repeat(16) };
      const traced = (trace: RecordedTrace): SessionEvent => ({ type: 'session.message_sent', data: { prompt: 'hi', trace } });
      given(created, started)
        .when({ type: 'SendMessage', sessionId: id, prompt: 'hi', reminders: [], onCurrentCli: true, trace: first })
        .then([traced(first)]);
      expect(given(created, started, traced(first), idle()).state.trace).toEqual(first);
      expect(given(created, started, traced(first), idle(), traced(second)).state.trace).toEqual(second);
      expect(given(created, started, traced(first), interrupted, resumed(2)).state.trace).toEqual(first);
      expect(given(created, started, sent).state.trace).toBeUndefined();
    });

    it('refuses an unknown, destroyed, failed, interrupted, stale or starting session with the errors the API answers', () => {
      given().when(send()).thenThrows(SessionNotFoundError, `Session ${id} does not exist`);
      given(created, started, destroyed).when(send()).thenThrows(SessionNotLiveError, `Session ${id} is destroyed (done); create a new session`);
      given(created, startFailed).when(send()).thenThrows(SessionNotLiveError, `Session ${id} is failed (boom); create a new session`);
      const interruptedMessage = `Session ${id} was interrupted (the Copilot CLI restarted); resume it with POST /api/sessions/${id}/resume`;
      given(created, started, interrupted).when(send()).thenThrows(SessionStateError, interruptedMessage);
      given(created, started).when(send(false)).thenThrows(SessionStateError, interruptedMessage);
      given(created).when(send()).thenThrows(SessionStateError, `Session ${id} is still starting`);
    });

    it('records a refused message, and nothing once the session is over', () => {
      const command: SessionCommand = { type: 'RecordMessageFailure', sessionId: id, error: 'refused' };
      given(created, started, sent)
        .when(command)
        .then([{ type: 'session.message_failed', data: { error: 'refused' } }]);
      given(created, started, sent, destroyed).when(command).then([]);
    });
  });

  describe('interrupt', () => {
    const interrupt: SessionCommand = { type: 'InterruptSession', sessionId: id, reason: 'The Copilot CLI exited' };
    it('records whether a turn was running; an interrupted or finished session stays as it is', () => {
      given(created, started, sent)
        .when(interrupt)
        .then([{ type: 'session.interrupted', data: { reason: 'The Copilot CLI exited', wasRunning: true } }]);
      given(created, started).when(interrupt).then([interrupted]);
      given(created, started, interrupted).when(interrupt).then([]);
      given(created, started, destroyed).when(interrupt).then([]);
      given().when(interrupt).then([]);
    });
  });

  describe('resume', () => {
    it('records the resume, with a start when the CLI had to create it', () => {
      given(created, started, interrupted)
        .when(resume(2))
        .then([resumed(2)]);
      given(created, interrupted)
        .when(resume(2, true))
        .then([
          { type: 'session.started', data: { protocolVersion: 3, cliVersion: '1.0', teamAgents: team } },
          { type: 'session.resumed', data: { cliGeneration: 2, instanceId: 'instance-1', teamAgents: team, createdInCli: true } },
        ]);
    });

    it('refuses a second resume on the same CLI, and a destroyed session', () => {
      given(created, started, interrupted, resumed(2))
        .when(resume(2))
        .thenThrows(SessionStateError, `Session ${id} is idle, not interrupted; there is nothing to resume`);
      given(created, started, interrupted, resumed(2), interrupted)
        .when(resume(3))
        .then([resumed(3)]);
      given(created, started, interrupted, destroyed).when(resume(2)).thenThrows(SessionNotLiveError, `Session ${id} is destroyed (done)`);
    });

    it('resumes an idle session on a restarted service, whose CLI counts its generations from 1 again', () => {
      // The session stayed idle over the restart (no turn was under way): the new process's CLI is
      // generation 1 as the old one was, and only the instance tells them apart.
      given(created, started, interrupted, resumed(1, 'before-restart'), sent, idle())
        .when(resume(1, false, 'after-restart'))
        .then([resumed(1, 'after-restart')]);
      // A resume recorded before events named their instance is on no CLI of this process.
      const older: SessionEvent = { type: 'session.resumed', data: { cliGeneration: 1, teamAgents: team } };
      given(created, started, interrupted, older)
        .when(resume(1))
        .then([resumed(1)]);
    });

    it('records a failed resume, and nothing once the session is over', () => {
      given(created, started, interrupted)
        .when({ type: 'RecordResumeFailure', sessionId: id, error: 'team' })
        .then([{ type: 'session.resume_failed', data: { error: 'team' } }]);
      given(created, destroyed).when({ type: 'RecordResumeFailure', sessionId: id, error: 'team' }).then([]);
    });
  });

  describe('destroy and sub-agents', () => {
    it('destroys once: a second destroy is the 409 a destroyed session answers', () => {
      given(created, started)
        .when({ type: 'DestroySession', sessionId: id, reason: 'done' })
        .then([{ type: 'session.destroyed', data: { reason: 'done', cliError: undefined } }]);
      given(created, started, destroyed)
        .when({ type: 'DestroySession', sessionId: id })
        .thenThrows(SessionNotLiveError, `Session ${id} is destroyed (done); create a new session`);
    });

    it('changes the sub-agents of a live session only', () => {
      const command: SessionCommand = { type: 'ChangeSubAgents', sessionId: id, subAgents: ['reviewer'] };
      given(created, started)
        .when(command)
        .then([{ type: 'session.sub_agents_changed', data: { subAgents: ['reviewer'] } }]);
      given(created, startFailed).when(command).thenThrows(SessionNotLiveError, `Session ${id} is failed (boom)`);
    });
  });

  describe('stopping the running turn', () => {
    const abort = (onCurrentCli = true): SessionCommand => ({ type: 'RequestAbort', sessionId: id, onCurrentCli });

    it('records the request on a running turn and leaves the status to the CLI (its idle ends the turn)', () => {
      given(created, started, sent)
        .when(abort())
        .then([{ type: 'session.abort_requested', data: {} }]);
      const after = foldEvents(sessionDecider, [created, started, sent, { type: 'session.abort_requested', data: {} }]);
      expect(after.status).toBe('running');
      expect(foldEvents(sessionDecider, [created, started, sent, { type: 'session.abort_requested', data: {} }, idle()]).status).toBe('idle');
    });

    it('refuses when there is no running turn, saying the status', () => {
      given(created, started, sent, idle()).when(abort()).thenThrows(SessionStateError, `Session ${id} is idle; there is no running turn to stop`);
      given(created, started, sent, interrupted)
        .when(abort())
        .thenThrows(SessionStateError, `Session ${id} is interrupted; there is no running turn to stop`);
      given(created, started, sent).when(abort(false)).thenThrows(SessionStateError, `Session ${id} is interrupted; there is no running turn to stop`);
      given(created, started, destroyed).when(abort()).thenThrows(SessionNotLiveError, `Session ${id} is destroyed`);
    });
  });

  describe('steering a running agent', () => {
    const steer = (extra: Partial<Extract<SessionCommand, { type: 'SteerAgent' }>> = {}): SessionCommand => ({
      type: 'SteerAgent',
      sessionId: id,
      message: 'focus on tests',
      onCurrentCli: true,
      steeredBy: 'console',
      agentName: 'main',
      ...extra,
    });

    it('records the text, the agent and who sent it on a running turn, and leaves the status as it is', () => {
      given(created, started, sent)
        .when(steer())
        .then([{ type: 'session.steered', data: { message: 'focus on tests', target: 'main', agentName: 'main', steeredBy: 'console' } }]);
      const steered: SessionEvent = { type: 'session.steered', data: { message: 'x', target: 'main', agentName: 'main', steeredBy: 'api' } };
      expect(foldEvents(sessionDecider, [created, started, sent, steered]).status).toBe('running');
    });

    it('records a running sub-agent as the target, and the run it was sent to', () => {
      given(created, started, sent)
        .when(steer({ agentName: 'checker', runId: 'r-1', subagent: { subagentId: 'agent-7', status: 'running' } }))
        .then([
          {
            type: 'session.steered',
            data: { message: 'focus on tests', target: 'subagent', subagentId: 'agent-7', agentName: 'checker', steeredBy: 'console', runId: 'r-1' },
          },
        ]);
    });

    it('refuses an agent that is not running, naming its state', () => {
      given(created, started, sent, idle())
        .when(steer())
        .thenThrows(SessionStateError, `Session ${id} is idle; only an agent whose turn is running can be steered (send a message instead`);
      given(created, started).when(steer()).thenThrows(SessionStateError, `Session ${id} is active; only an agent whose turn is running`);
      given(created, started, sent)
        .when(steer({ onCurrentCli: false }))
        .thenThrows(SessionStateError, `Session ${id} is interrupted`);
      given(created, started, destroyed).when(steer()).thenThrows(SessionNotLiveError, `Session ${id} is destroyed`);
      given(created, started)
        .when(steer({ runId: 'r-1' }))
        .thenThrows(SessionStateError, `Run r-1 is running but its agent's turn is not (its session ${id} is active); steer it while its turn runs`);
      given(created, started, sent)
        .when(steer({ subagent: { subagentId: 'agent-7', status: 'completed' } }))
        .thenThrows(SessionStateError, `Sub-agent agent-7 of session ${id} is completed; only a running sub-agent can be steered`);
      given(created, started, sent)
        .when(steer({ subagent: { subagentId: 'nope', status: undefined } }))
        .thenThrows(SubagentNotFoundError, `has no sub-agent nope`);
    });

    it('records a steer the CLI did not take, unless the session is over', () => {
      given(created, started, sent)
        .when({ type: 'RecordSteerFailure', sessionId: id, error: 'gone', subagentId: 'agent-7' })
        .then([{ type: 'session.steer_failed', data: { error: 'gone', target: 'subagent', subagentId: 'agent-7' } }]);
      given(created, started, destroyed).when({ type: 'RecordSteerFailure', sessionId: id, error: 'gone' }).then([]);
    });
  });
});
