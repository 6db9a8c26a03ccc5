import { runActionsFor, runFilterOf, runStatusTone } from './run-list';

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
});
