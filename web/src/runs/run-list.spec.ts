import { replayMarkOf, runActionsFor, runFilterOf, runStatusTone, startedByText } from './run-list';

describe('runs list rules', () => {
  it('sends only the filters that have a value, times as ISO instants', () => {
    expect(runFilterOf({ status: '', agentId: ' lead ', rootRunId: '  ' })).toEqual({ agentId: 'lead' });
    const local = '2026-01-10T09:30';
    expect(runFilterOf({ status: 'running', startedFrom: local, startedTo: 'not a time' })).toEqual({
      status: 'running',
      startedFrom: new Date(local).toISOString(),
    });
  });

  it('colours each status and offers the actions the service allows', () => {
    expect(runStatusTone('running')).toBe('live');
    expect(runStatusTone('completed')).toBe('done');
    expect(runStatusTone('failed')).toBe('attention');
    expect(runStatusTone('interrupted')).toBe('attention');
    expect(runStatusTone('stopped')).toBe('over');
    expect(runActionsFor('running')).toEqual(['stop']);
    expect(runActionsFor('interrupted')).toEqual(['resume']);
    expect(runActionsFor('stopped')).toEqual(['resume']);
    expect(runActionsFor('completed')).toEqual([]);
    expect(runActionsFor('failed')).toEqual([]);
  });

  it('marks every run of a fork’s tree a fork, not only its root; a replay’s runs a replay (issue 39)', () => {
    expect(replayMarkOf({ replayOf: 'orig-root', replayMode: 'fork', forkedFrom: { runId: 'orig-root' } })).toEqual({ kind: 'fork', of: 'orig-root' });
    // A fork's child: no forkedFrom (only the root has it), its own original in replayOf.
    expect(replayMarkOf({ replayOf: 'orig-child', replayMode: 'fork', forkedFrom: null })).toEqual({ kind: 'fork', of: 'orig-child' });
    // A child that had no original went live: still part of the fork, with nothing to link to.
    expect(replayMarkOf({ replayOf: null, replayMode: 'fork', forkedFrom: null })).toEqual({ kind: 'fork' });
    expect(replayMarkOf({ replayOf: 'orig-child', replayMode: 'replay', forkedFrom: null })).toEqual({ kind: 'replay', of: 'orig-child' });
    expect(replayMarkOf({ replayOf: null, replayMode: null, forkedFrom: null })).toBeUndefined();
  });
  it('says who started a run and where their request came from (issue 43: MCP and A2A too)', () => {
    const run = (via: string | null) => ({ startedBy: { kind: 'key', name: 'ci', via }, ownerThreadId: 'api' });
    expect(startedByText(run('api'))).toBe('key ci through the API');
    expect(startedByText(run('mcp'))).toBe('key ci through MCP');
    expect(startedByText(run('a2a'))).toBe('key ci through A2A');
    expect(startedByText({ startedBy: { kind: 'user', name: 'Ada', via: 'console' }, ownerThreadId: 'api' })).toBe('Ada in the console');
    expect(startedByText(run(null))).toBe('key ci');
    expect(startedByText({ startedBy: null, ownerThreadId: 'api' })).toBe('the API');
  });
});
