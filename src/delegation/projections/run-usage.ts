import { type StoredEvent, runIdOfThread, sessionIdOfStream } from '../../event-store';
import { CLI_EVENT_PREFIX } from '../../sessions';

/** The CLI events on a run's session stream that move its counters. */
export const USAGE = `${CLI_EVENT_PREFIX}assistant.usage`;
export const TOOL_START = `${CLI_EVENT_PREFIX}tool.execution_start`;

/** What a CLI usage or tool-start event adds to its run's counters: undefined for any other event, or off a run's session. */
export interface RunUsage {
  runId: string;
  inputTokens: number;
  outputTokens: number;
  toolCalls: number;
}
export function runUsageOf(event: StoredEvent): RunUsage | undefined {
  if (event.type !== USAGE && event.type !== TOOL_START) return undefined;
  const runId = runIdOfThread(sessionIdOfStream(event.streamId) ?? '');
  if (!runId) return undefined;
  if (event.type === TOOL_START) return { runId, inputTokens: 0, outputTokens: 0, toolCalls: 1 };
  const payload = recordOf(event.data.payload);
  return { runId, inputTokens: numberOr0(payload.inputTokens), outputTokens: numberOr0(payload.outputTokens), toolCalls: 0 };
}

export function numberOr0(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A CLI event's payload: an object, or nothing usable. */
export function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? { ...value } : {};
}
