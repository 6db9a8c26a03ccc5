import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import { SSE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import { Observable } from 'rxjs';
import { CredentialStreams } from './credential-streams';
import { PRINCIPAL_PROPERTY, type Principal } from './principal';

/** The last event of an SSE stream whose credential ended (issue 39): `event: closed`, then the response ends. */
export const STREAM_CLOSED_EVENT = 'closed';

/**
 * issue 39: every SSE route (`@Sse()`) registers its response with the caller's credential, so a revoked
 * or expired key or sign-in session ends it: one last `closed` event saying why, then the end of the
 * response (an EventSource that reconnects gets the 401). Other routes pass through untouched.
 */
@Injectable()
export class CredentialStreamsInterceptor implements NestInterceptor {
  constructor(
    private readonly reflector: Reflector,
    private readonly streams: CredentialStreams,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http' || !this.reflector.get<boolean | undefined>(SSE_METADATA, context.getHandler())) return next.handle();
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; [PRINCIPAL_PROPERTY]?: Principal }>();
    const principal = request[PRINCIPAL_PROPERTY];
    if (!principal?.credential) return next.handle();
    // The last event's id goes on the closing event too (Nest would number it otherwise), so a client that
    // resumes with Last-Event-ID after signing in again misses nothing and sees nothing twice.
    let lastId = typeof request.headers['last-event-id'] === 'string' ? request.headers['last-event-id'] : '';
    return new Observable((subscriber) => {
      // An observer of its own (not the subscriber itself): unsubscribing from the events leaves the response open for the last one.
      const events = next.handle().subscribe({
        next: (event) => {
          const id = (event as { id?: unknown } | null)?.id;
          if (typeof id === 'string' || typeof id === 'number') lastId = String(id);
          subscriber.next(event);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      const release = this.streams.open(principal, {
        end: (ending) => {
          events.unsubscribe();
          subscriber.next({ type: STREAM_CLOSED_EVENT, id: lastId, data: ending });
          subscriber.complete();
        },
      });
      return () => {
        release();
        events.unsubscribe();
      };
    });
  }
}
