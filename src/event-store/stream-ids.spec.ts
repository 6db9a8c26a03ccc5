import {
  a2aPushStreamId,
  apiKeyStreamId,
  agentStreamId,
  approvalStreamId,
  modelCallStreamId,
  parseStreamId,
  pauseStreamId,
  pauseTargetOfStream,
  RUN_THREAD_PREFIX,
  runIdOfStream,
  runIdOfThread,
  runStreamId,
  runThreadId,
  scheduleFiringStreamId,
  scheduleStreamId,
  sessionIdOfStream,
  sessionStreamId,
  STREAM_PREFIXES,
  streamCategory,
  workspaceStreamId,
} from './stream-ids';

describe('stream ids', () => {
  // The ids are public (REST, GraphQL, the audit log): each kind's prefix is pinned here, not read from the code.
  const kinds = [
    ['session', sessionStreamId, 'session-'],
    ['run', runStreamId, 'run-'],
    ['agent', agentStreamId, 'agent-'],
    ['approval', approvalStreamId, 'approval-'],
    ['modelCall', modelCallStreamId, 'model_call-'],
    ['apiKey', apiKeyStreamId, 'api_key-'],
    ['schedule', scheduleStreamId, 'schedule-'],
    ['scheduleFiring', scheduleFiringStreamId, 'schedule_firing-'],
    ['workspace', workspaceStreamId, 'workspace-'],
    ['a2aPush', a2aPushStreamId, 'a2a_push-'],
  ] as const;

  it.each(kinds)('builds a %s stream as its prefix and the id, and parses it back, ids with dashes included', (kind, build, prefix) => {
    expect(STREAM_PREFIXES[kind]).toBe(prefix);
    for (const id of ['x', '0193a6f4-7b2c-7d1e-9f00-0123456789ab', 'code-reviewer', 'session-nested']) {
      expect(build(id)).toBe(`${prefix}${id}`);
      expect(parseStreamId(build(id))).toEqual({ kind, id });
    }
  });

  it('knows no other kind than those and the pauses, and runs its threads as sub-agent-<runId>', () => {
    expect(Object.keys(STREAM_PREFIXES).sort()).toEqual([...kinds.map(([kind]) => kind), 'pause'].sort());
    expect(STREAM_PREFIXES.pause).toBe('pause-');
    expect(runThreadId('r9')).toBe('sub-agent-r9');
    expect(RUN_THREAD_PREFIX).toBe('sub-agent-');
  });

  it('builds and parses the pause streams of a run and of a session (issue 26)', () => {
    expect(pauseStreamId('run', 'r1')).toBe('pause-run-r1');
    expect(pauseStreamId('session', 'sub-agent-r1')).toBe('pause-session-sub-agent-r1');
    expect(pauseTargetOfStream('pause-session-sub-agent-r1')).toEqual({ target: 'session', id: 'sub-agent-r1' });
    expect(pauseTargetOfStream('pause-run-0193a6f4-7b2c')).toEqual({ target: 'run', id: '0193a6f4-7b2c' });
    expect(pauseTargetOfStream('run-r1')).toBeUndefined();
    expect(pauseTargetOfStream('pause-agent-x')).toBeUndefined();
  });

  it("reads a run's thread session stream as a session whose id is the thread, and finds the run in it", () => {
    const stream = sessionStreamId(runThreadId('r9'));
    expect(stream).toBe('session-sub-agent-r9');
    expect(parseStreamId(stream)).toEqual({ kind: 'session', id: 'sub-agent-r9' });
    expect(sessionIdOfStream(stream)).toBe('sub-agent-r9');
    expect(runIdOfThread(sessionIdOfStream(stream) ?? '')).toBe('r9');
    expect(runIdOfStream(stream)).toBe('r9');
    expect(runIdOfStream(runStreamId('r9'))).toBe('r9');
  });

  it('does not read a run from a plain session, an agent stream or an unknown stream', () => {
    expect(runIdOfStream(sessionStreamId('s1'))).toBeUndefined();
    expect(runIdOfStream(agentStreamId('sub-agent-x'))).toBeUndefined();
    expect(runIdOfStream('sub-agent-r9')).toBeUndefined();
    expect(runIdOfThread('s1')).toBeUndefined();
  });

  it('refuses unknown prefixes, bare prefixes and ids that only contain a prefix later on', () => {
    for (const streamId of ['thing-1', 'sessions-1', 'Session-1', 'runner', '', 'session-', 'run-', 'agent-', 'x-session-1']) {
      expect(parseStreamId(streamId)).toBeUndefined();
    }
    expect(sessionIdOfStream('session-')).toBeUndefined();
    expect(sessionIdOfStream(runStreamId('r1'))).toBeUndefined();
    expect(runIdOfThread(RUN_THREAD_PREFIX)).toBeUndefined();
  });

  it("names any stream's category by the part before its first dash, known kind or not", () => {
    expect(streamCategory(sessionStreamId(runThreadId('r1')))).toBe('session');
    expect(streamCategory(runStreamId('r1'))).toBe('run');
    expect(streamCategory('thing-1-2')).toBe('thing');
    expect(streamCategory('nodash')).toBe('nodash');
    expect(streamCategory('-lead')).toBe('-lead');
  });
});
