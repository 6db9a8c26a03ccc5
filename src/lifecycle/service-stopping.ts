import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Observable, ReplaySubject } from 'rxjs';

/**
 * Tells long-lived HTTP responses (Server-Sent Events) that the service is stopping, so they end
 * themselves before the HTTP drain starts. Apollo's drain (GraphQLModule's own destroy hook) waits
 * for every open request and cuts what is left after 10 s; a stream still open then reaches its
 * client as a cut connection instead of an end it resumes from (Last-Event-ID).
 *
 * AppModule calls `begin()` from its destroy hook, which Nest runs before any feature module's
 * (modules are destroyed from the root down, dependents before what they import). The hook here
 * only covers an app assembled without AppModule.
 */
@Injectable()
export class ServiceStopping implements OnModuleDestroy {
  private readonly stopping = new ReplaySubject<void>(1);
  private begun = false;

  /** Emits once when the service begins to stop; replayed, so a stream opened during the stop ends at once. */
  get signal(): Observable<void> {
    return this.stopping.asObservable();
  }

  begin(): void {
    if (this.begun) return;
    this.begun = true;
    this.stopping.next();
    this.stopping.complete();
  }

  onModuleDestroy(): void {
    this.begin();
  }
}
