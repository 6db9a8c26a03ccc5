import { type CatalogEntry, contextCatalog, TRACES } from '../common/event-catalog-entry';
import { PauseEvents } from './pause.events';

const pauseDecided: CatalogEntry = { stream: 'pause', appendedBy: { decider: 'pauseDecider' }, projections: ['pauses', TRACES], console: 'not shown' };

export const pauseCatalog = contextCatalog({ PauseEvents }, { [PauseEvents.paused]: pauseDecided, [PauseEvents.unpaused]: pauseDecided });
