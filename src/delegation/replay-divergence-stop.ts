import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { filter, type Subscription } from 'rxjs';
import { EventStore, type StoredEvent } from '../event-store';
import { ModelCallEvents } from '../model-calls';
import { RunStateError } from './run.errors';
import { RunHandleTable } from './run-handle-table';
import { RunStopper } from './run-stopper';

/** The refusal the model route records at a replay's first divergence under `onDivergence: stop`. */
export const REPLAY_DIVERGENCE_LIMIT = 'replay_divergence';

/** What a divergence stop acts on: the replay tree's root, the session whose turn the refusal ends, and its words. */
export function divergenceStopOf(event: StoredEvent): { rootRunId: string; sessionId: string; message: string } | undefined {
  if (event.type !== ModelCallEvents.refused || event.data.limit !== REPLAY_DIVERGENCE_LIMIT) return undefined;
  const { rootRunId, sessionId, message } = event.data;
  if (typeof rootRunId !== 'string' || typeof sessionId !== 'string') return undefined;
  return { rootRunId, sessionId, message: typeof message === 'string' ? message : 'the replay diverged from its record' };
}

/**
 * issue 26: a replay that meets its first divergence with `onDivergence: stop` stops as a whole: the
 * model route refuses that call (its agent's turn ends on the message), and here the replay tree's root is
 * stopped with every run under it, `stoppedBy {actor: 'replay', reason: 'replay_diverged', message}`.
 * Only the instance holding the root acts (committed$ carries every instance's events on PostgreSQL).
 */
@Injectable()
export class ReplayDivergenceStop implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ReplayDivergenceStop.name);
  private subscription?: Subscription;

  constructor(
    private readonly store: EventStore,
    private readonly stopper: RunStopper,
    private readonly handles: RunHandleTable,
  ) {}

  onModuleInit(): void {
    this.subscription = this.store.committed$.pipe(filter((event) => event.type === ModelCallEvents.refused)).subscribe((event) => {
      const stop = divergenceStopOf(event);
      if (stop && this.handles.get(stop.rootRunId)) void this.stopTree(stop);
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  private async stopTree({ rootRunId, sessionId, message }: { rootRunId: string; sessionId: string; message: string }): Promise<void> {
    try {
      // The refused call's turn ends by itself on the refusal: that session is given the grace period, not aborted.
      const stopped = await this.stopper.stopTree(rootRunId, { actor: 'replay', reason: 'replay_diverged', message }, new Set([sessionId]));
      this.logger.warn({ rootRunId, stopped, message }, 'replay stopped at its first divergence');
    } catch (error) {
      // Two agents diverging at once: the second stop finds the tree already stopped.
      if (error instanceof RunStateError) return;
      this.logger.error({ rootRunId, err: error }, 'could not stop a replay that diverged');
    }
  }
}
