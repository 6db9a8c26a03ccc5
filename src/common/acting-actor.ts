import { AsyncLocalStorage } from 'node:async_hooks';
import { SYSTEM_ACTOR, type Actor } from './actor';

/**
 * issue 27: who the work under way is done for, so every event it appends records it as `metadata.by`
 * without each command passing it along. A request (REST, GraphQL) runs as its principal's actor
 * (`ActingActorInterceptor`), a delegation tool call as its agent, and work that runs on its own
 * (timers, reactions to committed events, a run's launch, the CLI's records) as Switchboard itself:
 * what a person's request starts in the background must say `asSystem`/`actingAs` where it starts,
 * or it would be recorded as theirs. Outside any of these an event is the system's.
 */
const acting = new AsyncLocalStorage<Actor>();

/** Runs `work` (and everything it starts) as `actor`. */
export function actingAs<T>(actor: Actor, work: () => T): T {
  return acting.run(actor, work);
}

/** Runs `work` as Switchboard itself: background work a request starts but does not own. */
export function asSystem<T>(work: () => T): T {
  return acting.run(SYSTEM_ACTOR, work);
}

/** The actor the current work is done for; Switchboard when nobody's request started it. */
export function currentActor(): Actor {
  return acting.getStore() ?? SYSTEM_ACTOR;
}

/** `fn`, bound to run as Switchboard whenever it is called (a timer's or subscription's callback made during a request). */
export function systemCallback<A extends unknown[], R>(fn: (...args: A) => R): (...args: A) => R {
  return (...args) => asSystem(() => fn(...args));
}
