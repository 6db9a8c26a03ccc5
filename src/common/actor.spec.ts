import { actorOfMetadata, API_ACTOR } from './actor';

describe('actorOfMetadata', () => {
  it('reads the recorded actor', () => {
    const by = { kind: 'user' as const, id: 'https://idp.example#42', name: 'Ada', via: 'console' as const };
    expect(actorOfMetadata({ by })).toEqual(by);
  });

  it('reads an event recorded before issue 27, or a malformed actor, as the api actor', () => {
    expect(actorOfMetadata({})).toEqual(API_ACTOR);
    expect(actorOfMetadata(undefined)).toEqual(API_ACTOR);
    expect(actorOfMetadata({ by: { kind: 'robot', id: 'x', name: 'y' } })).toEqual(API_ACTOR);
  });
});
