import { contextCatalog, decidedBy, TRACES } from '../common';
import { PauseEvents } from './pause.events';

const pauseDecided = decidedBy('pauseDecider', 'pause', ['pauses', TRACES]);

export const pauseCatalog = contextCatalog({ PauseEvents }, { [PauseEvents.paused]: pauseDecided, [PauseEvents.unpaused]: pauseDecided });
