import { SYSTEM_ACTOR } from '../../src/common/actor';
import { RunRepository } from '../../src/delegation/run-repository';
import { RunStateError, StaleRunCompletionError } from '../../src/delegation/run.errors';
import { runStreamId, sessionStreamId } from '../../src/event-store/stream-ids';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';
import { runStartedData } from '../fixtures/run-fixtures';

/** RunRepository over a real store, SQLite and PostgreSQL: what a command writes to the run's stream and to its owner's. */
describe.each(eventStoreTargets())('RunRepository (%s)', (_name, openTarget) => {
  let es: EventStoreTarget;
  let repository: RunRepository;
  beforeEach(async () => {
    es = await openTarget();
    repository = new RunRepository(es.store);
  });
  afterEach(() => es.close());

  const child = runStartedData({
    runId: 'r2',
    parentRunId: 'r1',
    ownerThreadId: 'sub-agent-r1',
    rootRunId: 'r1',
    depth: 2,
    path: '/r1/r2/',
    threadId: 'sub-agent-r2',
  });

  it("tags the run's events with its root run as correlation id, and tells the owner session in the same commit when it ends", async () => {
    await repository.decide('r2', { type: 'start', data: child }, { actor: 'session:sub-agent-r1' });
    const done = await repository.decide('r2', { type: 'complete', epoch: 1, output: 'LGTM' }, { actor: 'switchboard' });
    expect(done).toMatchObject({ status: 'completed', output: 'LGTM', epoch: 1 });

    const run = await es.store.readStream(runStreamId('r2'));
    // Outside any request (no person or agent acting), the events are Switchboard's.
    expect(run.map((e) => [e.type, e.metadata])).toEqual([
      ['run.started', { correlationId: 'r1', actor: 'session:sub-agent-r1', by: SYSTEM_ACTOR }],
      ['run.completed', { correlationId: 'r1', actor: 'switchboard', by: SYSTEM_ACTOR }],
    ]);
    const owner = await es.store.readStream(sessionStreamId('sub-agent-r1'));
    expect(owner.map((e) => [e.type, e.data, e.metadata])).toEqual([
      ['run.ended', { runId: 'r2', agentId: 'code-reviewer', status: 'completed', output: 'LGTM' }, { actor: 'switchboard', by: SYSTEM_ACTOR }],
    ]);
    expect(owner[0].globalPosition).toBe(run[1].globalPosition + 1);
  });

  it('tells nobody when the API owns the run, and nothing more for a no-op interrupt', async () => {
    await repository.decide('r1', { type: 'start', data: runStartedData() });
    await repository.decide('r1', { type: 'interrupt', reason: 'restart' });
    await repository.decide('r1', { type: 'interrupt', reason: 'again' });
    expect((await es.store.readStream(runStreamId('r1'))).map((e) => e.type)).toEqual(['run.started', 'run.interrupted']);
    expect(await es.store.readStream(sessionStreamId('api'))).toEqual([]);
  });

  it('writes nothing when the decider refuses', async () => {
    await expect(repository.decide('r9', { type: 'complete', epoch: 1, output: 'x' })).rejects.toThrow(RunStateError);
    await repository.decide('r2', { type: 'start', data: child });
    await expect(repository.decide('r2', { type: 'complete', epoch: 2, output: 'x' })).rejects.toThrow(StaleRunCompletionError);
    expect(await es.store.readStream(runStreamId('r2'))).toHaveLength(1);
    expect(await es.store.readStream(sessionStreamId('sub-agent-r1'))).toEqual([]);
  });

  it('lets one of two racing completions win; the other decides again on the ended run and is refused', async () => {
    await repository.decide('r2', { type: 'start', data: child });
    const results = await Promise.allSettled([
      repository.decide('r2', { type: 'complete', epoch: 1, output: 'a' }),
      repository.decide('r2', { type: 'fail', epoch: 1, error: 'b' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(RunStateError);
    expect(await es.store.readStream(sessionStreamId('sub-agent-r1'))).toHaveLength(1);
  });
});
