import { contextCatalog, decidedBy, RUN_TREE, TRACES } from '../common';
import { onSession } from '../sessions';
import { RunEvents } from './run.events';

const runDecided = (projections: readonly string[]) => decidedBy('runDecider', 'run', projections, RUN_TREE);

export const runCatalog = contextCatalog(
  { RunEvents },
  {
    [RunEvents.started]: runDecided(['runs', TRACES]),
    [RunEvents.completed]: runDecided(['runs', TRACES]),
    [RunEvents.failed]: runDecided(['runs', TRACES]),
    [RunEvents.stopped]: runDecided(['runs', TRACES]),
    [RunEvents.interrupted]: runDecided(['runs', TRACES]),
    [RunEvents.resumed]: runDecided(['runs', TRACES]),
    [RunEvents.budgetWarned]: { ...runDecided(['runs', TRACES]), console: ['web/src/runs/timeline.ts'] },
    [RunEvents.remoteTaskLinked]: { ...runDecided(['runs', TRACES]), console: ['web/src/runs/timeline.ts'] },
    [RunEvents.remoteUsageReported]: { ...runDecided(['runs', TRACES]), console: ['web/src/runs/timeline.ts'] },
    [RunEvents.ended]: onSession(RunEvents.ended, 'owner', [], 'not shown'),
    [RunEvents.progress]: onSession(RunEvents.progress, 'parent', [], 'not shown'),
    [RunEvents.delegationRefused]: onSession(RunEvents.delegationRefused, 'caller', [], 'not shown'),
  },
);
