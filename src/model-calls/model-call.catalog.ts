import { contextCatalog, decidedBy, TRACES } from '../common';
import { ModelCallEvents } from './model-call.events';

const modelCallDecided = decidedBy('modelCallDecider', 'model_call', ['model-calls', TRACES]);

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
