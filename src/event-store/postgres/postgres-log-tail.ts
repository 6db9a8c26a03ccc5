import type { Logger } from '@nestjs/common';
import { Client, type Pool } from 'pg';
import { Observable, Subject } from 'rxjs';
import { asSystem } from '../../common';
import type { StoredEvent } from '../event-store.types';
import { readEventsAfter } from './postgres-log-rows';

export const EVENTS_CHANNEL = 'switchboard_events';

const READ_PAGE_SIZE = 500;
/** The LISTEN connection's reconnect backoff: first try, then doubling up to the cap while the database stays away. */
const RELISTEN_FIRST_MS = 100;
const RELISTEN_MAX_MS = 5_000;

/** An append's settlement, held until the tail has published its events. */
interface PublishWaiter {
  position: number;
  settle(): void;
}

export interface PostgresLogTailOptions {
  pool: Pool;
  logger: Logger;
  /** The store's NOTIFY payload: its own notifications need no read, its commits woke the tail already. */
  instanceId: string;
  pollIntervalMs: number;
  /** Global position of the newest committed event: where the tail starts. */
  headPosition(): Promise<number>;
}

/**
 * The PostgreSQL store's tail: `events$` carries every event of the database, whichever instance appended
 * it, once and in global order. One reader follows the log after the last position it published, woken by
 * the store's commits, by NOTIFY from the other instances and by the poll, so a lost notification costs a
 * poll interval, never an event. The store's own group is published without a read when it directly
 * follows what the tail published (under the append lock nothing else can sit between them); the group's
 * appends settle once their events are published.
 */
export class PostgresLogTail {
  private readonly published = new Subject<StoredEvent>();
  /** Last global position `events$` published; set from the head when the tail starts. */
  private position = 0;
  private started?: Promise<void>;
  private running = false;
  private reading = false;
  private readAgain = false;
  private failing = false;
  private closing = false;
  private waiters: PublishWaiter[] = [];
  /** `onCommitted`'s readers: woken whenever the log may have grown. */
  private readonly readers = new Set<() => void>();
  private listener?: Client;
  private listening?: Promise<void>;
  private relistenTimer?: NodeJS.Timeout;
  private relistenAttempts = 0;
  private pollTimer?: NodeJS.Timeout;

  readonly events$: Observable<StoredEvent> = this.published.asObservable();

  constructor(private readonly options: PostgresLogTailOptions) {}

  /** Reads the head once, then keeps the tail fed (the poll and LISTEN); a failed start can be retried. */
  start(): Promise<void> {
    this.started ??= this.startOnce().catch((error: unknown) => {
      this.started = undefined;
      throw error;
    });
    return this.started;
  }

  /** Adds a reader woken whenever the log may have grown; returns the function that removes it. */
  addReader(wake: () => void): () => void {
    this.readers.add(wake);
    return () => this.readers.delete(wake);
  }

  /** The store committed a group: its readers may read on. */
  wakeReaders(): void {
    this.readers.forEach((wake) => wake());
  }

  /**
   * The store's own group, committed: `settle` runs once its last event is published. It directly
   * follows what the tail published (under the append lock every smaller position is committed or
   * rolled back for good), so it is published as it is; otherwise (other instances' events, a
   * rolled-back gap, a read under way) the tail reads the log.
   */
  offer(events: readonly StoredEvent[], settle: () => void): void {
    this.waiters.push({ position: events[events.length - 1].globalPosition, settle });
    if (events[events.length - 1].globalPosition <= this.position) {
      // A read (the poll, say) got there before this commit's answer did: published already.
      this.settlePublished();
      return;
    }
    if (!this.reading && events[0].globalPosition === this.position + 1) {
      this.publish(events);
      return;
    }
    this.wakeTail();
  }

  /** Waits until every offered group is published (settled unpublished if the log cannot be read), then stops. */
  async close(): Promise<void> {
    this.closing = true;
    const last = Math.max(0, ...this.waiters.map((waiter) => waiter.position));
    if (last > 0) await new Promise<void>((resolve) => this.waiters.push({ position: last, settle: resolve }));
    this.running = false;
    this.stopPolling();
    this.readers.clear();
    this.published.complete();
    clearTimeout(this.relistenTimer);
    const listener = this.listener;
    this.listener = undefined;
    await listener?.end().catch(() => undefined);
  }

  private async startOnce(): Promise<void> {
    if (!this.running) {
      this.position = await this.options.headPosition();
      this.running = true;
      this.startPolling();
    }
    await this.ensureListening();
  }

  /** A wake for the tail and for the readers: a NOTIFY from another instance, the poll. */
  private wakeAll(): void {
    this.wakeTail();
    this.wakeReaders();
  }

  private wakeTail(): void {
    if (!this.running) return;
    if (this.reading) {
      this.readAgain = true; // a wake while reading: read once more after this pass
      return;
    }
    this.reading = true;
    void this.read();
  }

  /**
   * Reads the log after the tail's position until a page comes back short, publishing each page.
   * `reading` is cleared in the same turn as the last `readAgain` check: a wake in between would be lost.
   */
  private async read(): Promise<void> {
    try {
      do {
        this.readAgain = false;
        for (;;) {
          const page = await readEventsAfter(this.options.pool, this.position, READ_PAGE_SIZE);
          const fresh = page.filter((event) => event.globalPosition > this.position);
          if (fresh.length > 0) this.publish(fresh);
          if (page.length < READ_PAGE_SIZE) break;
        }
      } while (this.readAgain && this.running);
      if (this.failing) this.options.logger.log({ position: this.position }, 'reading the log for committed$ works again');
      this.failing = false;
    } catch (error) {
      // The next wake (at the latest the poll) reads again from the same position; said once per outage.
      if (!this.failing)
        this.options.logger.warn({ err: error, position: this.position }, 'reading the log for committed$ failed; retrying at every wake');
      this.failing = true;
      if (this.closing) {
        // Closing with the database gone: the appends are durable, resolve them unpublished.
        this.waiters.splice(0).forEach((waiter) => waiter.settle());
      }
    } finally {
      this.reading = false;
    }
  }

  /** Events in global order after the tail's position: to events$, then the appends they settle. */
  private publish(events: readonly StoredEvent[]): void {
    // What reacts to a committed event does it as Switchboard, whichever request the tail read for.
    asSystem(() => {
      for (const event of events) {
        this.position = event.globalPosition;
        this.published.next(event);
      }
    });
    this.settlePublished();
  }

  /** Settles the appends whose events the tail has published, in log order. */
  private settlePublished(): void {
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((waiter) => waiter.position <= this.position).sort((a, b) => a.position - b.position);
    if (ready.length === 0) return;
    this.waiters = this.waiters.filter((waiter) => waiter.position > this.position);
    ready.forEach((waiter) => waiter.settle());
  }

  /** One LISTEN connection per store, reconnected when it drops; the poll covers the gap. */
  private ensureListening(): Promise<void> {
    this.listening ??= this.listen().catch((error: unknown) => {
      this.listening = undefined;
      throw error;
    });
    return this.listening;
  }

  private async listen(): Promise<void> {
    const client = new Client({ ...this.options.pool.options });
    const lost = (error?: Error) => {
      if (this.listener !== client) return;
      this.options.logger.warn({ err: error }, 'LISTEN connection lost; reconnecting, the poll reads meanwhile');
      this.listener = undefined;
      this.listening = undefined;
      client.end().catch(() => undefined);
      this.relisten();
    };
    // Listened to from the start: an 'error' without a listener would end the process.
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.payload !== this.options.instanceId) this.wakeAll();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.closing) {
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
  }

  /**
   * LISTEN again after a backoff (100 ms, doubling to 5 s) for as long as the database stays away.
   * Once back, every reader is woken: NOTIFYs sent meanwhile were lost, so each reads on from its position.
   */
  private relisten(): void {
    if (this.closing || this.relistenTimer) return;
    const delay = Math.min(RELISTEN_MAX_MS, RELISTEN_FIRST_MS * 2 ** Math.min(this.relistenAttempts, 16));
    this.relistenAttempts += 1;
    this.relistenTimer = setTimeout(() => {
      this.relistenTimer = undefined;
      if (this.closing) return;
      this.ensureListening().then(
        () => {
          this.options.logger.log({ attempts: this.relistenAttempts }, 'LISTEN connection back; reading what was missed');
          this.relistenAttempts = 0;
          this.wakeAll();
        },
        (error: unknown) => {
          if (this.relistenAttempts === 1) this.options.logger.warn({ err: error }, 'LISTEN reconnect failed; retrying with backoff');
          this.relisten();
        },
      );
    }, delay);
    this.relistenTimer.unref();
  }

  private startPolling(): void {
    if (this.pollTimer || this.closing) return;
    this.pollTimer = setInterval(() => this.wakeAll(), this.options.pollIntervalMs);
    this.pollTimer.unref();
  }

  private stopPolling(): void {
    clearInterval(this.pollTimer);
    this.pollTimer = undefined;
  }
}
