import { type Actor, actorOfMetadata } from '../../common';
import type { StoredEvent } from '../../event-store';
import type { RunStartedData } from '../run.events';

/** The `runs` row a run.started inserts, as RunsProjection and its PostgreSQL set-based form both write it. */
export function startedRunRowOf(d: RunStartedData, at: string, by: Actor) {
  return {
    runId: d.runId,
    agentId: d.agentId,
    prompt: d.prompt,
    status: 'running',
    background: d.background,
    parentRunId: d.parentRunId,
    parentThreadId: d.parentThreadId,
    ownerThreadId: d.ownerThreadId,
    rootRunId: d.rootRunId,
    depth: d.depth,
    path: d.path,
    threadId: d.threadId,
    epoch: d.epoch,
    policy: JSON.stringify(d.policy),
    budget: d.budget ? JSON.stringify(d.budget) : null,
    replayOf: d.replay?.of ?? null,
    replayMode: d.replay?.mode ?? null,
    forkedFromCall: d.replay?.mode === 'fork' && d.parentRunId === null ? (d.replay.fromModelCall ?? null) : null,
    scheduledBy: d.scheduledBy ? JSON.stringify({ scheduleId: d.scheduledBy.scheduleId, firingId: d.scheduledBy.firingId }) : null,
    startedBy: JSON.stringify(by),
    a2aContextId: d.a2a?.contextId ?? null,
    remote: d.remote ? JSON.stringify({ a2a: d.remote.a2a }) : null,
    startedAt: at,
    launchedAt: at,
    updatedAt: at,
  };
}

export type StartedRunRow = ReturnType<typeof startedRunRowOf>;

/** Every field of a started row, for the set-based form's INSERT column list. */
export const STARTED_RUN_FIELDS = [
  'runId',
  'agentId',
  'prompt',
  'status',
  'background',
  'parentRunId',
  'parentThreadId',
  'ownerThreadId',
  'rootRunId',
  'depth',
  'path',
  'threadId',
  'epoch',
  'policy',
  'budget',
  'replayOf',
  'replayMode',
  'forkedFromCall',
  'scheduledBy',
  'startedBy',
  'a2aContextId',
  'remote',
  'startedAt',
  'launchedAt',
  'updatedAt',
] as const satisfies readonly (keyof StartedRunRow)[];
/** Fails to compile while a started row has a field the list misses. */
export const STARTED_RUN_FIELDS_COMPLETE: Exclude<keyof StartedRunRow, (typeof STARTED_RUN_FIELDS)[number]> extends never ? true : never = true;

/** A run.started event's row. */
export function startedRunRowOfEvent(event: StoredEvent & { data: RunStartedData }): StartedRunRow {
  return startedRunRowOf(event.data, event.recordedAt, actorOfMetadata(event.metadata));
}

/** A launch's length from its two ISO timestamps (never below 0: instances' clocks may disagree). */
export function launchMs(launchedAt: string, endedAt: string): number {
  return Math.max(0, Math.round(Date.parse(endedAt) - Date.parse(launchedAt)));
}
