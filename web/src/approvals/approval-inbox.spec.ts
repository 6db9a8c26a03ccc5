import { type ApprovalLike, countLabel, groupByRootRun, lineageOf, requestLine, requestSentence } from './approval-inbox';

const approval = (id: string, requestedAt: string, extra: Partial<ApprovalLike> = {}): ApprovalLike => ({
  id,
  kind: 'shell',
  sessionId: 's1',
  lineagePath: [],
  requestedAt,
  ...extra,
});

describe('the approvals inbox', () => {
  it('groups pending requests by root run (a session’s own by session), longest waiting first', () => {
    const groups = groupByRootRun([
      approval('a', '2026-11-23T10:00:03Z', { rootRunId: 'r1', runId: 'r2' }),
      approval('b', '2026-11-23T10:00:02Z'),
      approval('c', '2026-11-23T10:00:01Z', { rootRunId: 'r1', runId: 'r1' }),
      approval('d', '2026-11-23T10:00:04Z', { sessionId: 's2' }),
    ]);
    expect(groups.map((g) => [g.key, g.approvals.map((a) => a.id)])).toEqual([
      ['run:r1', ['c', 'a']],
      ['session:s1', ['b']],
      ['session:s2', ['d']],
    ]);
    expect(groups[0]).toMatchObject({ rootRunId: 'r1', sessionId: 's1' });
    expect(groups[1].rootRunId).toBeUndefined();
  });

  it('names who asked from the root of the team down', () => {
    expect(lineageOf({ lineagePath: ['lead', 'researcher'], agentName: 'researcher' })).toBe('lead → researcher');
    expect(lineageOf({ lineagePath: [], agentName: 'operator' })).toBe('operator');
    expect(lineageOf({ lineagePath: [], agentName: null })).toBe('main agent');
    // With the library's display names, as the inbox and the chat both say it.
    const names = new Map([
      ['lead-1', 'Lead'],
      ['code-reviewer-1', 'Code Reviewer'],
    ]);
    expect(lineageOf({ lineagePath: ['lead-1', 'code-reviewer-1', 'helper'] }, names)).toBe('Lead → Code Reviewer → helper');
    expect(lineageOf({ lineagePath: [], agentName: 'code-reviewer-1' }, names)).toBe('Code Reviewer');
  });

  it('says in one line what the request would do', () => {
    expect(requestLine({ kind: 'shell', arguments: { kind: 'shell', fullCommandText: 'echo hi', intention: 'print' } })).toBe('shell: echo hi');
    expect(requestLine({ kind: 'url', arguments: { url: 'https://example.com' } })).toBe('url: https://example.com');
    expect(requestLine({ kind: 'custom-tool', toolName: 'lookup_secret', arguments: { args: { key: 'alpha' } } })).toBe(
      'custom-tool · lookup_secret: {"key":"alpha"}',
    );
    expect(requestLine({ kind: 'memory', arguments: null })).toBe('memory');
  });

  it('counts a badge past a page as more', () => {
    expect(countLabel(3, false)).toBe('3');
    expect(countLabel(500, true)).toBe('500+');
  });
});

describe('requestSentence: what a request would do, as a person reads it (issue 39)', () => {
  const names = new Map([
    ['lead', 'Lead'],
    ['code-reviewer', 'Code Reviewer'],
  ]);
  const asked = (kind: string, args: unknown, extra: Partial<ApprovalLike> = {}) => ({ kind, arguments: args, lineagePath: ['lead'], ...extra });

  it('names the agents by their display names: a delegation says whom it starts and on what', () => {
    const delegation = asked(
      'custom-tool',
      { toolName: 'agent_run', args: { agent_id: 'code-reviewer', prompt: 'Review PR 12' } },
      { toolName: 'agent_run' },
    );
    expect(requestSentence(delegation, names)).toBe('Lead wants to start Code Reviewer on: Review PR 12');
    // An agent the library no longer has is shown by its id; a sub-agent that asked is the requester.
    expect(requestSentence({ ...delegation, arguments: { args: { agent_id: 'gone' } } }, names)).toBe('Lead wants to start gone');
    expect(requestSentence({ ...delegation, agentName: 'code-reviewer', lineagePath: ['lead', 'code-reviewer'] }, names)).toMatch(/^Code Reviewer wants/);
  });

  it('says what a shell command, a file write, a fetch and another tool would do', () => {
    expect(requestSentence(asked('shell', { fullCommandText: 'ls -la' }), names)).toBe('Lead wants to run `ls -la`');
    expect(requestSentence(asked('write', { fileName: '/tmp/notes.md' }), names)).toBe('Lead wants to write /tmp/notes.md');
    expect(requestSentence(asked('url', { url: 'https://example.com/x' }), names)).toBe('Lead wants to fetch https://example.com/x');
    expect(requestSentence(asked('custom-tool', { toolName: 'save_result' }, { toolName: 'save_result' }), names)).toBe(
      'Lead wants to use the tool save_result',
    );
    expect(requestSentence(asked('hook', {}, { lineagePath: [] }), names)).toBe('The main agent asks for a hook permission');
  });
});
