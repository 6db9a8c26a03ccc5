import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** The agent library (spec agent-teams): reading it is for everyone, changing it is the admin's. */
export const AGENTS_ACCESS = {
  'AgentsController.list': ['read'],
  'AgentsController.get': ['read'],
  'AgentsController.eligible': ['read'],
  'AgentsController.export': ['read'],
  'AgentsController.create': ['administer'],
  'AgentsController.update': ['administer'],
  'AgentsController.delete': ['administer'],
  'AgentsController.import': ['administer'],
  'Query.agents': ['read'],
  'Query.agent': ['read'],
  'Query.eligibleSubAgents': ['read'],
  'Query.agentDraftCheck': ['read'],
  'Query.agentFiles': ['read'],
  'Query.mcpServers': ['read'],
  'Query.knownBuiltinTools': ['read'],
  'Query.hookTypes': ['read'],
  'Subscription.agentLibraryChanged': ['read'],
  'Mutation.createAgent': ['administer'],
  'Mutation.updateAgent': ['administer'],
  'Mutation.deleteAgent': ['administer'],
  'Mutation.importAgents': ['administer'],
  'Mcp.list_agents': ['read'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class AgentsAccess implements AccessRuleSet {
  readonly rules: AccessRules = AGENTS_ACCESS;
}
