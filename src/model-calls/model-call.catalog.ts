import { type CatalogEntry, contextCatalog, TRACES } from '../common/event-catalog-entry';
import { ModelCallEvents } from './model-call.events';

const modelCallDecided: CatalogEntry = {
  stream: 'model_call',
  appendedBy: { decider: 'modelCallDecider' },
  projections: ['model-calls', TRACES],
  console: 'not shown',
};

export const modelCallCatalog = contextCatalog(
  { ModelCallEvents },
  {
    [ModelCallEvents.started]: modelCallDecided,
    [ModelCallEvents.finished]: modelCallDecided,
    [ModelCallEvents.failed]: modelCallDecided,
    [ModelCallEvents.refused]: modelCallDecided,
    [ModelCallEvents.interrupted]: modelCallDecided,
  },
);
