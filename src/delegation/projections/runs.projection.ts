import { type Actor, actorOfMetadata } from '../../common';
import { eq, inArray, sql } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database';
import type { StoredEvent } from '../../event-store';
import { one, type ProjectionWork, PerEventProjection, ReadModelProjection, run, runPrepared } from '../../projections';
import { SessionEvents } from '../../sessions';
import { isRunEvent, type RunEvent, RunEvents, RUN_STREAM_EVENT_TYPES, type RunStartedData } from '../run.events';
import { launchMs, startedRunRowOf } from './run-rows';
import { numberOr0, recordOf, runUsageOf, TOOL_START, USAGE } from './run-usage';
import { runsOnPostgres } from './runs.pg-projection';

/**
 * Inline: the `runs` table (status, lineage path, output, usage). Usage comes from the CLI events
 * recorded on each run's session stream (`session-sub-agent-<run_id>`): tokens from assistant.usage,
 * one tool call per tool.execution_start, CLI-native sub-agents of the run included.
 */
@ReadModelProjection()
export class RunsProjection extends PerEventProjection {
  readonly name = 'runs';
  readonly mode = 'inline';
  readonly tables = ['runs'] as const;
  readonly eventTypes = [...RUN_STREAM_EVENT_TYPES, SessionEvents.reminded, USAGE, TOOL_START];
  readonly setBased = { postgres: runsOnPostgres };

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    if (isRunEvent(event)) return yield* this.applyRunEvent(event, db);
    const { runs } = db.tables;
    switch (event.type) {
      case SessionEvents.reminded: {
        const ids = event.data.kind === 'runs' ? stringsOf(event.data.runIds) : [];
        if (ids.length) yield* run(db.orm.update(runs).set({ ownerNotified: true }).where(inArray(runs.runId, ids)));
        if (event.data.kind === 'budget') {
          // How many warnings of each run the owner was told (budget-reminders.ts).
          for (const [runId, told] of Object.entries(recordOf(event.data.told))) {
            yield* run(
              db.orm
                .update(runs)
                .set({ budgetWarningsTold: numberOr0(told) })
                .where(eq(runs.runId, runId)),
            );
          }
        }
        return;
      }
      case USAGE:
      case TOOL_START: {
        const usage = runUsageOf(event);
        if (!usage) return;
        // A third of a run's session events: built once per connection, not per event.
        yield* runPrepared(db, 'runs_add_usage', addRunUsage, { ...usage });
        return;
      }
    }
  }

  private *applyRunEvent(event: StoredEvent & RunEvent, db: ReadModelDatabase): ProjectionWork {
    const at = event.recordedAt;
    const { runs } = db.tables;
    switch (event.type) {
      case RunEvents.started:
        return yield* this.started(event.data, at, db, actorOfMetadata(event.metadata));
      case RunEvents.completed:
        return yield* this.ended(db, event.data.runId, at, { status: 'completed', output: event.data.output });
      case RunEvents.failed:
        return yield* this.ended(db, event.data.runId, at, { status: 'failed', error: event.data.error });
      case RunEvents.stopped: {
        const d = event.data;
        return yield* this.ended(db, d.runId, at, {
          status: 'stopped',
          stoppedBy: JSON.stringify({ ...d.stoppedBy, forced: d.forced, by: actorOfMetadata(event.metadata) }),
        });
      }
      case RunEvents.interrupted:
        return yield* this.ended(db, event.data.runId, at, { status: 'interrupted', error: event.data.reason });
      case RunEvents.budgetWarned: {
        const { runId, ...warning } = event.data;
        // Read, append, write: the same on both databases (no JSON functions), and the row is this run's alone.
        const row = yield* one(db.orm.select({ budgetWarnings: runs.budgetWarnings }).from(runs).where(eq(runs.runId, runId)));
        if (!row) return;
        const warnings = [...(JSON.parse(row.budgetWarnings) as unknown[]), warning];
        yield* run(
          db.orm
            .update(runs)
            .set({ budgetWarnings: JSON.stringify(warnings), updatedAt: at })
            .where(eq(runs.runId, runId)),
        );
        return;
      }
      case RunEvents.remoteTaskLinked: {
        const { runId, epoch: _epoch, ...link } = event.data;
        return yield* this.mergeRemote(db, runId, at, link);
      }
      case RunEvents.remoteUsageReported: {
        const { runId, epoch: _epoch, taskId: _taskId, ...usage } = event.data;
        return yield* this.mergeRemote(db, runId, at, { usage });
      }
      case RunEvents.resumed: {
        const d = event.data;
        yield* run(
          db.orm
            .update(runs)
            .set({ status: 'running', epoch: d.epoch, error: null, stoppedBy: null, endedAt: null, launchedAt: at, updatedAt: at, ownerNotified: false })
            .where(eq(runs.runId, d.runId)),
        );
        return;
      }
    }
  }

  /** Read, merge, write, as budget warnings are: the card URL stays from the start, a link or usage adds to it. */
  private *mergeRemote(db: ReadModelDatabase, runId: string, at: string, fields: object): ProjectionWork {
    const { runs } = db.tables;
    const row = yield* one(db.orm.select({ remote: runs.remote }).from(runs).where(eq(runs.runId, runId)));
    if (!row) return;
    const remote = { ...(row.remote ? (JSON.parse(row.remote) as object) : {}), ...fields };
    yield* run(
      db.orm
        .update(runs)
        .set({ remote: JSON.stringify(remote), updatedAt: at })
        .where(eq(runs.runId, runId)),
    );
  }

  private *started(d: RunStartedData, at: string, db: ReadModelDatabase, by: Actor): ProjectionWork {
    yield* run(db.orm.insert(db.tables.runs).values(startedRunRowOf(d, at, by)));
  }

  /** Ends the current launch: its time since `launched_at` is added to the run's duration. */
  private *ended(
    db: ReadModelDatabase,
    runId: string,
    at: string,
    set: { status: string; output?: string; error?: string; stoppedBy?: string },
  ): ProjectionWork {
    const { runs } = db.tables;
    const row = yield* one(db.orm.select({ launchedAt: runs.launchedAt, durationMs: runs.durationMs }).from(runs).where(eq(runs.runId, runId)));
    if (!row) return;
    // Computed here from the two ISO timestamps rather than with each dialect's date functions.
    const launch = launchMs(row.launchedAt, at);
    yield* run(
      db.orm
        .update(runs)
        .set({ ...set, endedAt: at, updatedAt: at, durationMs: row.durationMs + launch })
        .where(eq(runs.runId, runId)),
    );
  }
}

/** A usage or tool-start event's counters added to its run's, with placeholders (runPrepared). */
function addRunUsage(db: ReadModelDatabase) {
  const { runs } = db.tables;
  return db.orm
    .update(runs)
    .set({
      inputTokens: sql`${runs.inputTokens} + ${sql.placeholder('inputTokens')}`,
      outputTokens: sql`${runs.outputTokens} + ${sql.placeholder('outputTokens')}`,
      toolCalls: sql`${runs.toolCalls} + ${sql.placeholder('toolCalls')}`,
    })
    .where(eq(runs.runId, sql.placeholder('runId')));
}

function stringsOf(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
