import { deciderSpec } from '../../../test/fixtures/decider-spec';
import { MAX_PUSH_CONFIGS, PushConfigNotFoundError, pushConfigDecider, TooManyPushConfigsError } from './push-config.decider';
import { type A2aPushEvent, A2aPushEvents, type PushConfigSetData } from './push-config.events';

const setData = (configId: string, over: Partial<PushConfigSetData> = {}): PushConfigSetData => ({
  taskId: 't1',
  configId,
  agentId: 'lead',
  url: `https://hooks.example.com/${configId}`,
  sealedCredentials: null,
  origin: 'https://switchboard.example.com',
  instanceId: 'i1',
  ...over,
});
const set = (configId: string, over: Partial<PushConfigSetData> = {}): A2aPushEvent => ({ type: A2aPushEvents.configSet, data: setData(configId, over) });
const given = deciderSpec(pushConfigDecider);

describe('push-config decider (issue 43)', () => {
  it('sets a config, and replaces one by its id without counting it twice', () => {
    given()
      .when({ type: 'set', data: setData('a') })
      .then([set('a')]);
    const full = Array.from({ length: MAX_PUSH_CONFIGS }, (_, i) => set(`c${i}`));
    given(...full)
      .when({ type: 'set', data: setData('c3', { url: 'https://hooks.example.com/new' }) })
      .then([set('c3', { url: 'https://hooks.example.com/new' })]);
    given(...full)
      .when({ type: 'set', data: setData('one-more') })
      .thenThrows(TooManyPushConfigsError, /already has 10 push-notification configs; delete one first/);
  });

  it('deletes a config it has, and refuses one it does not', () => {
    given(set('a'))
      .when({ type: 'delete', taskId: 't1', configId: 'a' })
      .then([{ type: A2aPushEvents.configDeleted, data: { taskId: 't1', configId: 'a' } }]);
    given(set('a'))
      .when({ type: 'delete', taskId: 't1', configId: 'b' })
      .thenThrows(PushConfigNotFoundError, /Task t1 has no push-notification config b/);
  });

  it('moves the sender to another instance once, and the last set names it too', () => {
    given(set('a'))
      .when({ type: 'move', taskId: 't1', instanceId: 'i2' })
      .then([{ type: A2aPushEvents.notifierMoved, data: { taskId: 't1', instanceId: 'i2' } }]);
    given(set('a'), { type: A2aPushEvents.notifierMoved, data: { taskId: 't1', instanceId: 'i2' } })
      .when({ type: 'move', taskId: 't1', instanceId: 'i2' })
      .then([]);
    given().when({ type: 'move', taskId: 't1', instanceId: 'i2' }).then([]);
    const state = [
      set('a'),
      set('b', { instanceId: 'i3' }),
      { type: A2aPushEvents.configDeleted, data: { taskId: 't1', configId: 'a' } } as A2aPushEvent,
    ].reduce(pushConfigDecider.evolve, pushConfigDecider.initialState());
    expect(state).toMatchObject({ instanceId: 'i3', configs: [{ configId: 'b' }] });
  });
});
