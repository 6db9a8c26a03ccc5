import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { EventBus } from '@nestjs/cqrs';
import { Subscription } from 'rxjs';
import { EventCommitted } from './event-committed.event';
import { EventStore } from './event-store';

/** Bridges the store's live feed to the CQRS EventBus, so sagas and event handlers see committed events only. */
@Injectable()
export class CommittedEventPublisher implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(CommittedEventPublisher.name);
  private subscription?: Subscription;

  constructor(
    private readonly store: EventStore,
    private readonly eventBus: EventBus,
  ) {}

  onModuleInit(): void {
    this.subscription = this.store.committed$.subscribe((event) => {
      try {
        this.eventBus.publish(new EventCommitted(event));
      } catch (error) {
        this.logger.error({ err: error, type: event.type }, 'an event handler threw');
      }
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
