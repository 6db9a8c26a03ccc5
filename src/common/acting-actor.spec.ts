import { actingAs, asSystem, currentActor, systemCallback } from './acting-actor';
import { SYSTEM_ACTOR, type Actor } from './actor';

const ada: Actor = { kind: 'user', id: 'idp#ada', name: 'Ada', via: 'console' };

describe('acting actor', () => {
  it('is Switchboard outside any request', () => {
    expect(currentActor()).toEqual(SYSTEM_ACTOR);
  });

  it('holds across awaits inside actingAs, and ends with it', async () => {
    const seen = await actingAs(ada, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return currentActor();
    });
    expect(seen).toEqual(ada);
    expect(currentActor()).toEqual(SYSTEM_ACTOR);
  });

  it("is inherited by a timer a request sets, unless its callback says it is Switchboard's", async () => {
    const [inherited, system] = await actingAs(ada, () =>
      Promise.all([
        new Promise<Actor>((resolve) => setTimeout(() => resolve(currentActor()), 1)),
        new Promise<Actor>((resolve) =>
          setTimeout(
            systemCallback(() => resolve(currentActor())),
            1,
          ),
        ),
      ]),
    );
    expect(inherited).toEqual(ada);
    expect(system).toEqual(SYSTEM_ACTOR);
  });

  it('asSystem inside a request runs as Switchboard', () => {
    expect(actingAs(ada, () => asSystem(() => currentActor()))).toEqual(SYSTEM_ACTOR);
  });
});
