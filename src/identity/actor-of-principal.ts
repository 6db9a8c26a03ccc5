import type { Actor } from '../common';
import type { Principal } from './principal';

/**
 * The actor a principal's commands record (issue 27): a person as a user, a named key as a key, the
 * bootstrap token as the `operator` key, today's open loopback as the local admin; `via` says whether
 * the console sent it (`X-Switchboard-Client: console`) or another API client.
 */
export function actorOfPrincipal(principal: Principal, via: NonNullable<Actor['via']>): Actor {
  switch (principal.kind) {
    case 'user':
      return { kind: 'user', id: principal.id, name: principal.name, via };
    case 'key':
      return { kind: 'key', id: principal.id, name: principal.name, via };
    case 'operator':
      return { kind: 'key', id: 'operator', name: 'operator', via };
    case 'local':
      return { kind: 'user', id: 'local', name: 'local admin', via };
  }
}
