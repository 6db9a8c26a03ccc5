import { type CatalogEntry, contextCatalog } from '../../common/event-catalog-entry';
import { ApiKeyEvents } from './api-key.events';

const apiKeyDecided: CatalogEntry = { stream: 'api_key', appendedBy: { decider: 'apiKeyDecider' }, projections: ['api-keys'], console: 'not shown' };

export const apiKeyCatalog = contextCatalog({ ApiKeyEvents }, { [ApiKeyEvents.created]: apiKeyDecided, [ApiKeyEvents.revoked]: apiKeyDecided });
