/**
 * Every stream id the service writes, built and parsed in one place. The ids are public (REST
 * `/api/events/streams/:streamId`, GraphQL, the audit log), so their form never changes: `<kind>-<id>`.
 * This file imports nothing, so any context may use it without an arrow back.
 */

/** The prefix of each stream kind: `session-<sessionId>`, `run-<runId>`, `agent-<agentId>`. */
export const STREAM_PREFIXES = {
  session: 'session-',
  run: 'run-',
  agent: 'agent-',
  approval: 'approval-',
  modelCall: 'model_call-',
  pause: 'pause-',
  apiKey: 'api_key-',
  schedule: 'schedule-',
  scheduleFiring: 'schedule_firing-',
  workspace: 'workspace-',
  a2aPush: 'a2a_push-',
} as const;

export type StreamKind = keyof typeof STREAM_PREFIXES;

export interface ParsedStreamId {
  kind: StreamKind;
  id: string;
}

/** spec: sub-agent-delegation: each child run executes on its own thread (CLI session) `sub-agent-<run_id>`. */
export const RUN_THREAD_PREFIX = 'sub-agent-';

const STREAM_KINDS = Object.keys(STREAM_PREFIXES) as StreamKind[];

/** The rest of `value` after `prefix`; undefined when it does not start so or nothing follows (a bare prefix is no id). */
function after(prefix: string, value: string): string | undefined {
  return value.startsWith(prefix) && value.length > prefix.length ? value.slice(prefix.length) : undefined;
}

/** The builder of one kind's stream ids: its prefix, then the id. */
function streamIdOf(kind: StreamKind): (id: string) => string {
  return (id) => `${STREAM_PREFIXES[kind]}${id}`;
}

export const sessionStreamId = streamIdOf('session');

export const runStreamId = streamIdOf('run');

export const agentStreamId = streamIdOf('agent');

/** issue 14: one stream per permission request that waits for a person. */
export const approvalStreamId = streamIdOf('approval');

/** issue 25: one stream per model call the CLI handed to Switchboard. */
export const modelCallStreamId = streamIdOf('modelCall');

/** issue 27: one stream per named API key (created, revoked). */
export const apiKeyStreamId = streamIdOf('apiKey');

/** issue 30: one stream per schedule (its definition: created, updated, enabled, disabled, deleted). */
export const scheduleStreamId = streamIdOf('schedule');

/**
 * issue 30: one stream per firing of a schedule. A due firing's id is derived from the schedule and the
 * due time, so two instances firing the same due time write the same stream and the second conflicts.
 */
export const scheduleFiringStreamId = streamIdOf('scheduleFiring');

/** issue 42: the git worktree of one session (a run's: of its thread, `workspace-sub-agent-<runId>`): opened, checkpoints, merges. */
export const workspaceStreamId = streamIdOf('workspace');

/** issue 43: the push-notification configs of one A2A task (its run's id): set, deleted, and which instance sends them. */
export const a2aPushStreamId = streamIdOf('a2aPush');

/** issue 26: the pauses of one run (`pause-run-<runId>`) or one session (`pause-session-<sessionId>`). */
export type PauseTarget = 'run' | 'session';

export function pauseStreamId(target: PauseTarget, id: string): string {
  return `${STREAM_PREFIXES.pause}${target}-${id}`;
}

/** The target of a pause stream; undefined for any other stream. */
export function pauseTargetOfStream(streamId: string): { target: PauseTarget; id: string } | undefined {
  const rest = after(STREAM_PREFIXES.pause, streamId);
  if (rest === undefined) return undefined;
  for (const target of ['run', 'session'] as const) {
    const id = after(`${target}-`, rest);
    if (id !== undefined) return { target, id };
  }
  return undefined;
}

/** The kind and id of a stream id; undefined for a stream no context writes (or a bare prefix). */
export function parseStreamId(streamId: string): ParsedStreamId | undefined {
  for (const kind of STREAM_KINDS) {
    const id = after(STREAM_PREFIXES[kind], streamId);
    if (id !== undefined) return { kind, id };
  }
  return undefined;
}

export function sessionIdOfStream(streamId: string): string | undefined {
  return after(STREAM_PREFIXES.session, streamId);
}

/** Category of any stream id, known kind or not: the part before the first '-' (`session-42` -> `session`). */
export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash > 0 ? streamId.slice(0, dash) : streamId;
}

/** A run's thread: the session id of the CLI session it executes on. */
export function runThreadId(runId: string): string {
  return `${RUN_THREAD_PREFIX}${runId}`;
}

export function runIdOfThread(threadId: string): string | undefined {
  return after(RUN_THREAD_PREFIX, threadId);
}

/** The run a stream belongs to: its own stream `run-<id>` or its thread's session stream `session-sub-agent-<id>`. */
export function runIdOfStream(streamId: string): string | undefined {
  const parsed = parseStreamId(streamId);
  if (parsed?.kind === 'run') return parsed.id;
  if (parsed?.kind === 'session') return runIdOfThread(parsed.id);
  return undefined;
}
