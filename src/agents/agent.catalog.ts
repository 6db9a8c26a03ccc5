import { type CatalogEntry, contextCatalog } from '../common/event-catalog-entry';
import { AgentEvents } from './agent.events';

const agentDecided: CatalogEntry = { stream: 'agent', appendedBy: { decider: 'agentDecider' }, projections: ['agents'], console: 'not shown' };

export const agentCatalog = contextCatalog(
  { AgentEvents },
  {
    [AgentEvents.created]: agentDecided,
    [AgentEvents.updated]: agentDecided,
    [AgentEvents.deleted]: agentDecided,
  },
);
