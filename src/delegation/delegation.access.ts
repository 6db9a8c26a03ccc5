import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** Runs: reading them (and a session's budget over its runs); starting, stopping, steering, resuming, replaying and forking them (and steering a session) needs operate. */
export const DELEGATION_ACCESS = {
  'SessionBudgetController.budget': ['read'],
  'Mutation.steerSession': ['operate'],
  'RunsController.list': ['read'],
  'RunsController.get': ['read'],
  'RunsController.output': ['read'],
  'RunsController.tree': ['read'],
  'RunsController.start': ['operate'],
  'RunsController.stop': ['operate'],
  'RunsController.steer': ['operate'],
  'RunsController.resume': ['operate'],
  'RunsController.replay': ['operate'],
  'RunsController.fork': ['operate'],
  'Query.runs': ['read'],
  'Query.run': ['read'],
  'Subscription.runEvents': ['read'],
  'Mutation.agentRun': ['operate'],
  'Mutation.agentStop': ['operate'],
  'Mutation.resumeRun': ['operate'],
  'Mutation.steerRun': ['operate'],
  'Mutation.replayRun': ['operate'],
  'Mutation.forkRun': ['operate'],
  'Mcp.run_agent': ['operate'],
  'Mcp.get_run': ['read'],
  'Mcp.stop_run': ['operate'],
  'Mcp.steer_run': ['operate'],
  'Mcp.resource.run': ['read'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class DelegationAccess implements AccessRuleSet {
  readonly rules: AccessRules = DELEGATION_ACCESS;
}
