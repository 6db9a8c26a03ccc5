import type { QueryBus } from '@nestjs/cqrs';
import DataLoader from 'dataloader';
import { batchScheduleFn, groupedLoader } from '../../graphql-api';
import type { ModelCallBodies, ModelCallPage } from '../model-call-view';
import type { ModelCallSpendView, RunCallsKey, SpendKey } from '../model-calls-read-model';
import { GetModelCallBodies } from '../queries/get-model-call-bodies/get-model-call-bodies.query';
import { GetModelCallSpend } from '../queries/get-model-call-spend/get-model-call-spend.query';
import { ListModelCallsOfRuns } from '../queries/list-model-calls-of-runs/list-model-calls-of-runs.query';

export interface RunModelCallsKey extends RunCallsKey {
  limit: number;
}

/** The model-call ledger's loaders of one GraphQL operation (`loaders.of(ModelCallLoaders)`). */
export class ModelCallLoaders {
  /** A page of each run's model calls (own or subtree): one statement per tree level and page size. */
  readonly runModelCalls: DataLoader<RunModelCallsKey, ModelCallPage, string>;
  readonly modelCallSpend: DataLoader<SpendKey, ModelCallSpendView, string>;
  /** Kept request and answer of each call, read off the calls' streams only when a query asks for them. */
  readonly modelCallBodies: DataLoader<string, ModelCallBodies>;

  constructor(queryBus: QueryBus) {
    this.runModelCalls = groupedLoader(
      (key) => JSON.stringify([key.runId, key.subtreePath ?? null, key.after ?? null, key.limit]),
      (key) => String(key.limit),
      (keys) =>
        queryBus.execute(
          new ListModelCallsOfRuns(
            keys.map(({ limit: _limit, ...key }) => key),
            keys[0].limit,
          ),
        ),
    );
    this.modelCallSpend = new DataLoader((keys) => queryBus.execute(new GetModelCallSpend(keys)), {
      cacheKeyFn: (key) => JSON.stringify(key),
      batchScheduleFn,
    });
    this.modelCallBodies = new DataLoader((ids) => queryBus.execute(new GetModelCallBodies(ids)), { batchScheduleFn });
  }
}
