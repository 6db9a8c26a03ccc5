import { contextCatalog, decidedBy } from '../common';
import { AgentEvents } from './agent.events';

const agentDecided = decidedBy('agentDecider', 'agent', ['agents']);

export const agentCatalog = contextCatalog(
  { AgentEvents },
  {
    [AgentEvents.created]: agentDecided,
    [AgentEvents.updated]: agentDecided,
    [AgentEvents.deleted]: agentDecided,
  },
);
