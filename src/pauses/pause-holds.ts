import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { isNull } from 'drizzle-orm';
import { type Actor, actorOfMetadata, API_ACTOR } from '../common';
import type { Subscription } from 'rxjs';
import { ReadModelDatabase } from '../database';
import {
  EventStore,
  type EventMetadata,
  type StoredEvent,
  parseStreamId,
  type PauseTarget,
  pauseTargetOfStream,
  runIdOfThread,
  runThreadId,
  sessionIdOfStream,
} from '../event-store';
import { LineageLookup } from '../run-lineage';
import { SessionEvents } from '../sessions';
import { isPauseEvent, type PauseEvent, PauseEvents } from './pause.events';

/** An open pause as the holds keep it. */
export interface OpenPause {
  pauseId: string;
  target: PauseTarget;
  targetId: string;
  runPath?: string;
  pausedBy: string;
  /** issue 27: who paused it. */
  pausedByActor: Actor;
  reason?: string;
  pausedAt: string;
}

/** What the views show of the pause over a run or a session (`status: paused`). */
export interface PauseView {
  since: string;
  /** The client it came from: `console` or `api` (kept as it was). */
  by: string;
  /** issue 27: who paused it (a person, a key, an agent). */
  actor: Actor;
  /** What is paused: this run or session, or the one above it whose pause covers it. */
  target: PauseTarget;
  runId?: string;
  sessionId?: string;
  reason?: string;
  /** Steps waiting now under this pause on this instance (model calls, tool calls, permissions, hooks, user input). */
  held: number;
}

/** Where a session sits: the runs on its run's path (root first, its own last) and who started the root run. */
interface Place {
  runIds: readonly string[];
  rootOwnerSessionId?: string;
}

interface Waiter {
  sessionId: string;
  place: Place | undefined;
  release: (goOn: boolean) => void;
}

/** Interval of one pause, for the time a time limit leaves out. */
interface Interval {
  from: number;
  to?: number;
}

/** Places kept, oldest dropped first: a long-lived service asks for many sessions over time. */
const CACHED_PLACES = 10_000;

const keyOf = (target: PauseTarget, id: string) => `${target}:${id}`;
/** Ends of a run (delegation sits above this context, so by name, as the model route does). */
const RUN_ENDS = new Set(['run.completed', 'run.failed', 'run.stopped', 'run.interrupted']);
const RUN_RESUMED = 'run.resumed';
/** Ended sessions remembered (a retried step arrives within seconds of its end; older ones are long gone). */
const ENDED_KEPT = 10_000;
const SESSION_ENDS = new Set<string>([SessionEvents.destroyed, SessionEvents.interrupted]);

/**
 * issue 26: holds each step of a paused subtree (its model calls at the model route, its routed requests
 * at the request router) until it is unpaused. A session is held when it is paused itself, when the run
 * whose thread it is or any of that run's ancestors is paused, or when the session that started its root
 * run is paused. The open pauses are kept in memory: loaded from `pauses` at start, then fed by
 * `committed$` (on PostgreSQL it carries every instance's events, so every instance holds alike).
 * Nothing paused: `waitWhilePaused` answers at once without I/O.
 */
@Injectable()
export class PauseHolds implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(PauseHolds.name);
  private readonly open = new Map<string, OpenPause>();
  /** Every pause interval seen by this process, per target key (time limits leave these out). */
  private readonly intervals = new Map<string, Interval[]>();
  /** Held steps, first come first released. */
  private waiters: Waiter[] = [];
  /** A session's place never changes once its run exists; a session that is no run's thread has none. */
  private readonly places = new Map<string, Place | null>();
  /**
   * Sessions whose run or session ended (until it resumes), the newest ENDED_KEPT: a step of one is never
   * held. The CLI retries a model call that a stop cancelled while it was held; held again under the pause
   * that is still open, it would wait for an unpause that may never come, with nothing left to release it.
   */
  private readonly ended = new Set<string>();
  private subscription?: Subscription;

  constructor(
    private readonly db: ReadModelDatabase,
    private readonly store: EventStore,
    private readonly lineages: LineageLookup,
  ) {}

  async onModuleInit(): Promise<void> {
    const { pauses } = this.db.tables;
    const rows = await this.db.orm.select().from(pauses).where(isNull(pauses.unpausedAt));
    for (const row of rows) {
      this.opened({
        pauseId: row.pauseId,
        target: row.target as PauseTarget,
        targetId: row.targetId,
        ...(row.runPath ? { runPath: row.runPath } : {}),
        pausedBy: row.pausedBy,
        pausedByActor: row.pausedByActor ? actorOfMetadata({ by: JSON.parse(row.pausedByActor) as unknown }) : API_ACTOR,
        ...(row.reason ? { reason: row.reason } : {}),
        pausedAt: row.pausedAt,
      });
    }
    if (rows.length > 0) this.logger.log({ pauses: rows.length }, 'pauses still open: their subtrees stay held');
    this.subscription = this.store.committed$.subscribe((event) => this.onCommitted(event));
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
    this.releaseWhere(() => true, false);
  }

  /** Takes a pause event in (the command that appended it calls this too, so its answer sees it; twice is harmless). */
  applied(event: PauseEvent & { streamId: string; metadata?: EventMetadata }): void {
    const target = pauseTargetOfStream(event.streamId);
    if (!target) return;
    if (event.type === PauseEvents.paused) {
      const d = event.data;
      this.opened({
        pauseId: d.pauseId,
        target: target.target,
        targetId: target.id,
        ...(d.runPath ? { runPath: d.runPath } : {}),
        pausedBy: d.pausedBy,
        pausedByActor: actorOfMetadata(event.metadata),
        ...(d.reason ? { reason: d.reason } : {}),
        pausedAt: d.pausedAt,
      });
    } else {
      const key = keyOf(target.target, target.id);
      const open = this.open.get(key);
      if (!open || open.pauseId !== event.data.pauseId) return;
      this.open.delete(key);
      const interval = this.intervals.get(key)?.at(-1);
      if (interval && interval.to === undefined) interval.to = Date.parse(open.pausedAt) + event.data.pausedMs;
      this.releaseWhere((waiter) => !this.holderOf(waiter.sessionId, waiter.place), true);
    }
  }

  /**
   * Resolves true once nothing over the session is paused (at once, without I/O, when nothing is paused
   * anywhere); false when the wait ended otherwise: the signal aborted, or the session or its run ended.
   */
  async waitWhilePaused(sessionId: string, signal?: AbortSignal): Promise<boolean> {
    if (this.open.size === 0) return true;
    if (signal?.aborted) return false;
    const place = await this.placeOf(sessionId);
    if (!this.holderOf(sessionId, place)) return true;
    if (signal?.aborted || this.ended.has(sessionId)) return false;
    return new Promise<boolean>((resolve) => {
      const onAbort = () => this.releaseWhere((w) => w === waiter, false);
      const waiter: Waiter = {
        sessionId,
        place,
        release: (goOn) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(goOn);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** The pause over a run (itself, an ancestor, or the session that started its tree), if any. */
  async pauseOverRun(runId: string): Promise<PauseView | undefined> {
    return this.pauseOverSession(runThreadId(runId));
  }

  /** The pause over a session (itself, or for a run's thread, as `pauseOverRun`), if any. */
  async pauseOverSession(sessionId: string): Promise<PauseView | undefined> {
    if (this.open.size === 0) return undefined;
    const holder = this.holderOf(sessionId, await this.placeOf(sessionId));
    return holder && this.viewOf(holder);
  }

  /** The pause over each of these runs that has one; nothing read while nothing is paused. */
  async pausesOverRuns(runIds: readonly string[]): Promise<Map<string, PauseView>> {
    const found = new Map<string, PauseView>();
    if (this.open.size === 0) return found;
    const views = await Promise.all(runIds.map((runId) => this.pauseOverRun(runId)));
    runIds.forEach((runId, i) => {
      const view = views[i];
      if (view) found.set(runId, view);
    });
    return found;
  }

  /** Whether this process saw any pause (open or closed): time counts skip their reads when not. */
  anyPauseSeen(): boolean {
    return this.intervals.size > 0;
  }

  /** Whether anything is paused anywhere: views skip their lookups when not. */
  anyPaused(): boolean {
    return this.open.size > 0;
  }

  /** The open pause of this very target (not one above it). */
  openPauseOf(target: PauseTarget, id: string): PauseView | undefined {
    const open = this.open.get(keyOf(target, id));
    return open && this.viewOf(open);
  }

  /** How long pauses over the session held within [from, to] (ms since the epoch), overlaps counted once. */
  async pausedMsOver(sessionId: string, from: number, to: number): Promise<number> {
    if (this.intervals.size === 0) return 0;
    const spans = this.keysOver(sessionId, await this.placeOf(sessionId))
      .flatMap((key) => this.intervals.get(key) ?? [])
      .map(({ from: start, to: end }) => [Math.max(from, start), Math.min(to, end ?? to)] as const)
      .filter(([start, end]) => end > start)
      .sort((a, b) => a[0] - b[0]);
    let total = 0;
    let reached = from;
    for (const [start, end] of spans) {
      if (end <= reached) continue;
      total += end - Math.max(start, reached);
      reached = end;
    }
    return total;
  }

  private opened(pause: OpenPause): void {
    const key = keyOf(pause.target, pause.targetId);
    if (this.open.get(key)?.pauseId === pause.pauseId) return;
    this.open.set(key, pause);
    const list = this.intervals.get(key) ?? [];
    list.push({ from: Date.parse(pause.pausedAt) });
    this.intervals.set(key, list);
  }

  private onCommitted(event: StoredEvent): void {
    if (isPauseEvent(event)) {
      this.applied(event);
      return;
    }
    let ended: string | undefined;
    if (SESSION_ENDS.has(event.type)) ended = sessionIdOfStream(event.streamId);
    else if (RUN_ENDS.has(event.type)) {
      const stream = parseStreamId(event.streamId);
      if (stream?.kind === 'run') ended = runThreadId(stream.id);
    } else if (event.type === RUN_RESUMED || event.type === SessionEvents.resumed) {
      const stream = parseStreamId(event.streamId);
      const resumed = stream?.kind === 'run' ? runThreadId(stream.id) : sessionIdOfStream(event.streamId);
      if (resumed !== undefined) this.ended.delete(resumed);
      return;
    }
    if (ended === undefined) return;
    this.ended.add(ended);
    if (this.ended.size > ENDED_KEPT) this.ended.delete(this.ended.keys().next().value!);
    if (this.waiters.length > 0) this.releaseWhere((waiter) => waiter.sessionId === ended, false);
  }

  /** Releases the matching waiters in the order they came, keeping the others waiting. */
  private releaseWhere(predicate: (waiter: Waiter) => boolean, goOn: boolean): void {
    const released: Waiter[] = [];
    const kept: Waiter[] = [];
    for (const waiter of this.waiters) (predicate(waiter) ? released : kept).push(waiter);
    this.waiters = kept;
    for (const waiter of released) waiter.release(goOn);
  }

  private keysOver(sessionId: string, place: Place | undefined): string[] {
    const keys = [keyOf('session', sessionId)];
    if (place) {
      if (place.rootOwnerSessionId) keys.unshift(keyOf('session', place.rootOwnerSessionId));
      keys.push(...place.runIds.map((id) => keyOf('run', id)));
    }
    return keys;
  }

  /** The topmost open pause over the session. */
  private holderOf(sessionId: string, place: Place | undefined): OpenPause | undefined {
    for (const key of this.keysOver(sessionId, place)) {
      const open = this.open.get(key);
      if (open) return open;
    }
    return undefined;
  }

  private viewOf(pause: OpenPause): PauseView {
    const key = keyOf(pause.target, pause.targetId);
    const held = this.waiters.filter((w) => this.keysOver(w.sessionId, w.place).includes(key)).length;
    return {
      since: pause.pausedAt,
      by: pause.pausedBy,
      actor: pause.pausedByActor,
      target: pause.target,
      ...(pause.target === 'run' ? { runId: pause.targetId } : { sessionId: pause.targetId }),
      ...(pause.reason ? { reason: pause.reason } : {}),
      held,
    };
  }

  private async placeOf(sessionId: string): Promise<Place | undefined> {
    const known = this.places.get(sessionId);
    if (known !== undefined) return known ?? undefined;
    if (this.places.size >= CACHED_PLACES) this.places.delete(this.places.keys().next().value as string);
    if (!runIdOfThread(sessionId)) {
      this.places.set(sessionId, null);
      return undefined;
    }
    const lineage = await this.lineages.lineageOfSession(sessionId);
    if (!lineage) return undefined; // not recorded yet: asked again next time
    const place: Place = {
      runIds: lineage.path.split('/').filter((id) => id.length > 0),
      ...(lineage.rootOwnerSessionId ? { rootOwnerSessionId: lineage.rootOwnerSessionId } : {}),
    };
    this.places.set(sessionId, place);
    return place;
  }
}
