import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** Workspaces (issue 42): what sessions and runs changed is read by whoever may read them. */
export const WORKSPACES_ACCESS = {
  'WorkspacesController.sessionChanges': ['read'],
  'WorkspacesController.sessionDiff': ['read'],
  'WorkspacesController.sessionCheckpoints': ['read'],
  'WorkspacesController.sessionBlame': ['read'],
  'WorkspacesController.runChanges': ['read'],
  'WorkspacesController.runDiff': ['read'],
  'WorkspacesController.runCheckpoints': ['read'],
  'WorkspacesController.runBlame': ['read'],
  'Query.sessionChanges': ['read'],
  'Query.runChanges': ['read'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class WorkspacesAccess implements AccessRuleSet {
  readonly rules: AccessRules = WORKSPACES_ACCESS;
}
