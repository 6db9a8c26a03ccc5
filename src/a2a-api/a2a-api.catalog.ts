import { contextCatalog, decidedBy } from '../common';
import { A2aPushEvents } from './push-notifications/push-config.events';

const pushDecided = decidedBy('pushConfigDecider', 'a2a_push', []);

export const a2aApiCatalog = contextCatalog(
  { A2aPushEvents },
  {
    [A2aPushEvents.configSet]: pushDecided,
    [A2aPushEvents.configDeleted]: pushDecided,
    [A2aPushEvents.notifierMoved]: pushDecided,
  },
);
