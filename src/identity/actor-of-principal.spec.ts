import { actorOfPrincipal } from './actor-of-principal';
import type { Principal } from './principal';

const principal = (kind: Principal['kind'], id: string, name: string): Principal => ({ kind, id, name, role: 'admin', via: 'bearer' });

describe('actorOfPrincipal', () => {
  it('records a person as a user, a named key as a key, with where the request came from', () => {
    expect(actorOfPrincipal(principal('user', 'https://idp#42', 'Ada'), 'console')).toEqual({
      kind: 'user',
      id: 'https://idp#42',
      name: 'Ada',
      via: 'console',
    });
    expect(actorOfPrincipal(principal('key', 'k1', 'nightly-ci'), 'api')).toEqual({ kind: 'key', id: 'k1', name: 'nightly-ci', via: 'api' });
  });

  it('records the bootstrap token as the operator key and the open loopback as the local admin', () => {
    expect(actorOfPrincipal(principal('operator', 'operator', 'operator'), 'api')).toEqual({ kind: 'key', id: 'operator', name: 'operator', via: 'api' });
    expect(actorOfPrincipal(principal('local', 'local', 'local admin'), 'console')).toEqual({
      kind: 'user',
      id: 'local',
      name: 'local admin',
      via: 'console',
    });
  });
});
