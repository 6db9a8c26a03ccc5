import { and, eq, inArray, sql } from 'drizzle-orm';
import { runs } from '../../database/schema';
import { preparedPerConnection } from '../../database/sqlite-database';
import type { Orm } from '../../database/sqlite-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type Projection, ReadModelProjection } from '../../event-store/projection';
import { runIdOfThread, sessionIdOfStream } from '../../event-store/stream-ids';
import { CLI_EVENT_PREFIX, type RecordedCliEventData, SessionEvents } from '../../sessions/session.events';
import {
  type RunCompletedData,
  RunEvents,
  type RunFailedData,
  type RunInterruptedData,
  type RunResumedData,
  type RunStartedData,
  type RunStoppedData,
} from '../run.events';

const USAGE = `${CLI_EVENT_PREFIX}assistant.usage`;
const TOOL_START = `${CLI_EVENT_PREFIX}tool.execution_start`;

/**
 * Inline: the `runs` table (status, lineage path, output, usage). Usage comes from the CLI events
 * recorded on each run's session stream (`session-sub-agent-<run_id>`): tokens from assistant.usage,
 * one tool call per tool.execution_start, CLI-native sub-agents of the run included.
 */
@ReadModelProjection()
export class RunsProjection implements Projection {
  readonly name = 'runs';
  readonly mode = 'inline';
  readonly tables = [runs];
  readonly eventTypes = [
    RunEvents.started,
    RunEvents.completed,
    RunEvents.failed,
    RunEvents.stopped,
    RunEvents.interrupted,
    RunEvents.resumed,
    SessionEvents.reminded,
    USAGE,
    TOOL_START,
  ];

  private readonly addUsage = preparedPerConnection((orm) =>
    orm
      .update(runs)
      .set({
        inputTokens: sql`${runs.inputTokens} + ${sql.placeholder('input')}`,
        outputTokens: sql`${runs.outputTokens} + ${sql.placeholder('output')}`,
        toolCalls: sql`${runs.toolCalls} + ${sql.placeholder('tools')}`,
      })
      .where(eq(runs.runId, sql.placeholder('runId')))
      .prepare(),
  );


  apply(event: StoredEvent, orm: Orm): void {
    switch (event.type) {
      case RunEvents.started:
        return this.started(event.data as unknown as RunStartedData, event.recordedAt, orm);
      case RunEvents.completed:
        return this.ended(orm, (event.data as unknown as RunCompletedData).runId, event.recordedAt, {
          status: 'completed',
          output: (event.data as unknown as RunCompletedData).output,
        });
      case RunEvents.failed:
        return this.ended(orm, (event.data as unknown as RunFailedData).runId, event.recordedAt, {
          status: 'failed',
          error: (event.data as unknown as RunFailedData).error,
        });
      case RunEvents.stopped: {
        const d = event.data as unknown as RunStoppedData;
        return this.ended(orm, d.runId, event.recordedAt, { status: 'stopped', stoppedBy: JSON.stringify({ ...d.stoppedBy, forced: d.forced }) });
      }
      case RunEvents.interrupted: {
        const d = event.data as unknown as RunInterruptedData;
        return this.ended(orm, d.runId, event.recordedAt, { status: 'interrupted', error: d.reason });
      }
      case RunEvents.resumed: {
        const d = event.data as unknown as RunResumedData;
        orm
          .update(runs)
          .set({ status: 'running', epoch: d.epoch, error: null, stoppedBy: null, endedAt: null, launchedAt: event.recordedAt, updatedAt: event.recordedAt, ownerNotified: false })
          .where(eq(runs.runId, d.runId))
          .run();
        return;
      }
      case SessionEvents.reminded: {
        const ids = event.data.kind === 'runs' ? (event.data.runIds as string[] | undefined) : undefined;
        if (ids?.length) orm.update(runs).set({ ownerNotified: true }).where(inArray(runs.runId, ids)).run();
        return;
      }
      case USAGE:
      case TOOL_START: {
        const runId = runIdOfThread(sessionIdOfStream(event.streamId) ?? '');
        if (!runId) return;
        const payload = (event.data as unknown as RecordedCliEventData).payload ?? {};
        const usage =
          event.type === USAGE
            ? { input: numberOr0(payload.inputTokens), output: numberOr0(payload.outputTokens), tools: 0 }
            : { input: 0, output: 0, tools: 1 };
        this.addUsage(orm).run({ ...usage, runId });
        return;
      }
    }
  }

  private started(d: RunStartedData, at: string, orm: Orm): void {
    orm
      .insert(runs)
      .values({
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
        startedAt: at,
        launchedAt: at,
        updatedAt: at,
      })
      .run();
  }

  /** Ends the current launch: its time since `launched_at` is added to the run's duration. */
  private ended(
    orm: Orm,
    runId: string,
    at: string,
    set: { status: string; output?: string; error?: string; stoppedBy?: string },
  ): void {
    orm
      .update(runs)
      .set({
        ...set,
        endedAt: at,
        updatedAt: at,
        durationMs: sql`${runs.durationMs} + max(0, cast(round((julianday(${at}) - julianday(${runs.launchedAt})) * 86400000) as integer))`,
      })
      .where(and(eq(runs.runId, runId)))
      .run();
  }
}

function numberOr0(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}
