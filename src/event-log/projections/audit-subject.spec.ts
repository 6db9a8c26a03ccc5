import { auditSubjectOf } from './audit-subject';

describe('auditSubjectOf', () => {
  it('takes the session from a session stream and the tool and decision from a routed request', () => {
    expect(
      auditSubjectOf({
        streamId: 'session-s1',
        data: { parentSessionId: 's1', agentName: 'reviewer', toolName: 'save_result', outcome: 'approved' },
      }),
    ).toEqual({ sessionId: 's1', runId: null, agentId: 'reviewer', toolName: 'save_result', decision: 'approved' });
  });

  it('names the built-in tool the CLI ran from the recorded CLI event', () => {
    const started = { streamId: 'session-s1', data: { payload: { toolCallId: 'c1', toolName: 'view', arguments: { path: 'a.ts' } } } };
    expect(auditSubjectOf(started)).toMatchObject({ sessionId: 's1', toolName: 'view' });
    expect(auditSubjectOf({ streamId: 'session-s1', data: { payload: 'not an object' } }).toolName).toBeNull();
  });

  it("ties a run's own thread (session sub-agent-<runId>) to its run", () => {
    expect(auditSubjectOf({ streamId: 'session-sub-agent-r9', data: { type: 'x' } })).toMatchObject({
      sessionId: 'sub-agent-r9',
      runId: 'r9',
    });
  });

  it('takes the run from a run stream and the session that started it from the data', () => {
    expect(auditSubjectOf({ streamId: 'run-r1', data: { runId: 'r1', agentId: 'lead', parentThreadId: 's7' } })).toEqual({
      sessionId: 's7',
      runId: 'r1',
      agentId: 'lead',
      toolName: null,
      decision: null,
    });
  });

  it('takes the agent from an agent stream, whatever the data says', () => {
    expect(auditSubjectOf({ streamId: 'agent-code-reviewer', data: { agentId: 'other' } }).agentId).toBe('code-reviewer');
  });

  it('prefers an explicit decision over an outcome and ignores empty or non-string fields', () => {
    expect(auditSubjectOf({ streamId: 'thing-1', data: { decision: 'denied', outcome: 'x', toolName: 3, runId: '' } })).toEqual({
      sessionId: null,
      runId: null,
      agentId: null,
      toolName: null,
      decision: 'denied',
    });
  });

  it('does not read a bare prefix as an id', () => {
    expect(auditSubjectOf({ streamId: 'session-', data: {} }).sessionId).toBeNull();
  });
});
