import type { IEvent } from '@nestjs/cqrs';
import type { StoredEvent } from './event-store.types';

/** Published on the @nestjs/cqrs EventBus for every committed event; handlers filter on `event.type`. */
export class EventCommitted implements IEvent {
  constructor(readonly event: StoredEvent) {}
}
