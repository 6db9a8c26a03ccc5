import { and, eq, inArray, sql } from 'drizzle-orm';
import { runs } from '../../database/schema';
import { preparedPerConnection } from '../../database/sqlite-database';
import type { Orm } from '../../database/sqlite-database';
import type { StoredEvent } from '../../event-store/event-store.types';
import { type Projection, ReadModelProjection } from '../../event-store/projection';
import { runIdOfThread, sessionIdOfStream } from '../../event-store/stream-ids';
import { CLI_EVENT_PREFIX, SessionEvents } from '../../sessions/session.events';
import { isRunEvent, type RunEvent, RunEvents, RUN_STREAM_EVENT_TYPES, type RunStartedData } from '../run.events';

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
  readonly eventTypes = [...RUN_STREAM_EVENT_TYPES, SessionEvents.reminded, USAGE, TOOL_START];

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
    if (isRunEvent(event)) return this.applyRunEvent(event, orm);
    switch (event.type) {
      case SessionEvents.reminded: {
        const ids = event.data.kind === 'runs' ? stringsOf(event.data.runIds) : [];
        if (ids.length) orm.update(runs).set({ ownerNotified: true }).where(inArray(runs.runId, ids)).run();
        if (event.data.kind === 'budget') {
          // How many warnings of each run the owner was told (budget-reminders.ts).
          for (const [runId, told] of Object.entries(recordOf(event.data.told))) {
            orm
              .update(runs)
              .set({ budgetWarningsTold: numberOr0(told) })
              .where(eq(runs.runId, runId))
              .run();
          }
        }
        return;
      }
      case USAGE:
      case TOOL_START: {
        const runId = runIdOfThread(sessionIdOfStream(event.streamId) ?? '');
        if (!runId) return;
        const payload = recordOf(event.data.payload);
        const usage =
          event.type === USAGE
            ? { input: numberOr0(payload.inputTokens), output: numberOr0(payload.outputTokens), tools: 0 }
            : { input: 0, output: 0, tools: 1 };
        this.addUsage(orm).run({ ...usage, runId });
        return;
      }
    }
  }

  private applyRunEvent(event: StoredEvent & RunEvent, orm: Orm): void {
    const at = event.recordedAt;
    switch (event.type) {
      case RunEvents.started:
        return this.started(event.data, at, orm);
      case RunEvents.completed:
        return this.ended(orm, event.data.runId, at, { status: 'completed', output: event.data.output });
      case RunEvents.failed:
        return this.ended(orm, event.data.runId, at, { status: 'failed', error: event.data.error });
      case RunEvents.stopped: {
        const d = event.data;
        return this.ended(orm, d.runId, at, { status: 'stopped', stoppedBy: JSON.stringify({ ...d.stoppedBy, forced: d.forced }) });
      }
      case RunEvents.interrupted:
        return this.ended(orm, event.data.runId, at, { status: 'interrupted', error: event.data.reason });
      case RunEvents.budgetWarned: {
        const { runId, ...warning } = event.data;
        orm
          .update(runs)
          .set({ budgetWarnings: sql`json_insert(${runs.budgetWarnings}, '$[#]', json(${JSON.stringify(warning)}))`, updatedAt: at })
          .where(eq(runs.runId, runId))
          .run();
        return;
      }
      case RunEvents.resumed: {
        const d = event.data;
        orm
          .update(runs)
          .set({ status: 'running', epoch: d.epoch, error: null, stoppedBy: null, endedAt: null, launchedAt: at, updatedAt: at, ownerNotified: false })
          .where(eq(runs.runId, d.runId))
          .run();
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
        budget: d.budget ? JSON.stringify(d.budget) : null,
        startedAt: at,
        launchedAt: at,
        updatedAt: at,
      })
      .run();
  }

  /** Ends the current launch: its time since `launched_at` is added to the run's duration. */
  private ended(orm: Orm, runId: string, at: string, set: { status: string; output?: string; error?: string; stoppedBy?: string }): void {
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

/** A CLI event's payload: an object, or nothing usable. */
function recordOf(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? { ...value } : {};
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
