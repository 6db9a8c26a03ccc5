import type { StoredEvent } from '../../event-store';
import { CliRecords } from '../../sessions';
import { RunEvents } from '../run.events';

/**
 * A step of a run's tree in a few words, for an MCP client's progress notifications (issue 43): a run
 * starting or ending, a tool call. Undefined for the rest (each model chunk, usage).
 */
export function progressOf(event: StoredEvent): string | undefined {
  const data = event.data;
  const payload = (data.payload ?? {}) as Record<string, unknown>;
  const run = event.streamId.startsWith('run-') ? event.streamId.slice('run-'.length, 'run-'.length + 8) : undefined;
  switch (event.type) {
    case RunEvents.started:
      return `run ${run} of ${text(data.agentName) ?? text(data.agentId) ?? 'an agent'} started`;
    case RunEvents.completed:
      return `run ${run} completed`;
    case RunEvents.failed:
      return `run ${run} failed${text(data.error) ? `: ${text(data.error)}` : ''}`;
    case RunEvents.stopped:
      return `run ${run} stopped`;
    case CliRecords.toolExecutionStart:
      return text(payload.toolName) ? `tool ${text(payload.toolName)}` : undefined;
    default:
      return undefined;
  }
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value.slice(0, 200) : undefined;
}
