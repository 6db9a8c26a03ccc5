import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { filter, type Subscription } from 'rxjs';
import { actingAs, actorOfMetadata } from '../common';
import { EventStore, type StoredEvent, sessionIdOfStream } from '../event-store';
import { RunsReadModel } from '../run-lineage';
import { SessionEvents } from '../sessions';
import { StopRun } from './commands/stop-run/stop-run.command';
import { RunStateError } from './run.errors';
import { RunHandleTable } from './run-handle-table';

/** The reason a run stopped with its caller's turn records. */
export const TURN_STOPPED_REASON = 'the turn that started it was stopped';

/**
 * A person stopped a session's turn (`session.abort_requested`, REST `POST /api/sessions/:id/abort` or
 * GraphQL `abortSessionTurn`): the runs that session started in the foreground and still runs are what
 * the turn was waiting on, so they are stopped with their subtrees through `StopRun` (the stop cascade),
 * as the person who stopped the turn. Background runs go on. Only the instance running a run acts
 * (committed$ carries every instance's events on PostgreSQL).
 */
@Injectable()
export class TurnStopCascade implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(TurnStopCascade.name);
  private subscription?: Subscription;

  constructor(
    private readonly store: EventStore,
    private readonly commandBus: CommandBus,
    private readonly runs: RunsReadModel,
    private readonly handles: RunHandleTable,
  ) {}

  onModuleInit(): void {
    this.subscription = this.store.committed$.pipe(filter((event) => event.type === SessionEvents.abortRequested)).subscribe((event) => {
      void this.stopForegroundRuns(event).catch((error: unknown) =>
        this.logger.error({ streamId: event.streamId, err: error }, 'could not stop the foreground runs of a stopped turn'),
      );
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  private async stopForegroundRuns(event: StoredEvent): Promise<void> {
    const sessionId = sessionIdOfStream(event.streamId);
    if (!sessionId) return;
    const runIds = (await this.runs.runningForegroundOwnedBy(sessionId)).filter((runId) => this.handles.has(runId));
    const actor = typeof event.metadata.actor === 'string' ? event.metadata.actor : 'api';
    await actingAs(actorOfMetadata(event.metadata), () =>
      Promise.all(
        runIds.map(async (runId) => {
          try {
            await this.commandBus.execute(new StopRun(runId, { kind: 'api', actor }, `${TURN_STOPPED_REASON} (session ${sessionId})`));
            this.logger.log({ runId, sessionId }, 'foreground run stopped with its caller’s turn');
          } catch (error) {
            // It ended on its own (or a cascade from a sibling reached it) first.
            if (!(error instanceof RunStateError)) throw error;
          }
        }),
      ),
    );
  }
}
