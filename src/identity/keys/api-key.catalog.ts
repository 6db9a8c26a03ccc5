import { contextCatalog, decidedBy } from '../../common';
import { ApiKeyEvents } from './api-key.events';

const apiKeyDecided = decidedBy('apiKeyDecider', 'api_key', ['api-keys']);

export const apiKeyCatalog = contextCatalog({ ApiKeyEvents }, { [ApiKeyEvents.created]: apiKeyDecided, [ApiKeyEvents.revoked]: apiKeyDecided });
