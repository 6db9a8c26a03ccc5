import { Injectable } from '@nestjs/common';
import { Observable, Subject } from 'rxjs';
import type { LiveSession } from './live-session';

/**
 * Sessions that exist (not destroyed), by id: the `sessions` map of the spec's resolveSession.
 * Filled at create/resume and at start from the read model, so late child requests resolve after a restart.
 */
@Injectable()
export class SessionRegistry {
  private readonly sessions = new Map<string, LiveSession>();
  private readonly removed = new Subject<string>();

  /** Ids of sessions just deleted or destroyed: the resolver drops their children (cleanup contract). */
  readonly removed$: Observable<string> = this.removed.asObservable();

  get(sessionId: string): LiveSession | undefined {
    return this.sessions.get(sessionId);
  }

  add(session: LiveSession): void {
    this.sessions.set(session.sessionId, session);
  }

  remove(sessionId: string): void {
    if (this.sessions.delete(sessionId)) this.removed.next(sessionId);
  }

  all(): LiveSession[] {
    return [...this.sessions.values()];
  }
}
