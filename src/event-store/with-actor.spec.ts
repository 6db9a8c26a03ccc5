import { actingAs, SYSTEM_ACTOR, type Actor } from '../common';
import { withActor } from './event-store';

const key: Actor = { kind: 'key', id: 'k1', name: 'nightly-ci', via: 'api' };
const agent: Actor = { kind: 'agent', id: 'session:s1', name: 'lead', lineage: ['lead'] };

describe('withActor', () => {
  it('stamps every event with the current actor, keeping the rest of its metadata and an actor it names itself', () => {
    const stamped = actingAs(key, () =>
      withActor([
        {
          streamId: 's-1',
          expectedVersion: 0,
          events: [
            { type: 'a.done', data: {}, metadata: { correlationId: 'c1' } },
            { type: 'b.done', data: {}, metadata: { by: agent } },
            { type: 'c.done', data: {} },
          ],
        },
      ]),
    );
    expect(stamped[0].events.map((e) => e.metadata)).toEqual([{ correlationId: 'c1', by: key }, { by: agent }, { by: key }]);
  });

  it("is Switchboard's outside any request", () => {
    expect(withActor([{ streamId: 's-1', expectedVersion: 'any', events: [{ type: 'a.done', data: {} }] }])[0].events[0].metadata).toEqual({
      by: SYSTEM_ACTOR,
    });
  });
});
