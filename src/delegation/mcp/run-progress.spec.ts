import type { StoredEvent } from '../../event-store';
import { progressOf } from './run-progress';

const event = (type: string, streamId: string, data: Record<string, unknown>): StoredEvent => ({
  globalPosition: 1,
  eventId: 'e',
  streamId,
  streamPosition: 1,
  type,
  data,
  metadata: {},
  recordedAt: '2026-12-07T00:00:00Z',
});

describe('a run step as an MCP progress message', () => {
  it('names runs starting and ending, and tool calls', () => {
    expect(progressOf(event('run.started', 'run-01a25167-c19d', { agentName: 'writer' }))).toBe('run 01a25167 of writer started');
    expect(progressOf(event('run.failed', 'run-01a25167-c19d', { error: 'budget' }))).toBe('run 01a25167 failed: budget');
    expect(progressOf(event('cli.tool.execution_start', 'session-sub-agent-x', { payload: { toolName: 'create' } }))).toBe('tool create');
  });

  it('says nothing of the rest', () => {
    expect(progressOf(event('cli.assistant.message_delta', 'session-x', {}))).toBeUndefined();
    expect(progressOf(event('cli.tool.execution_start', 'session-x', { payload: {} }))).toBeUndefined();
  });
});
