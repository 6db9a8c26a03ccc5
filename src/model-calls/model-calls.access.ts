import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** Model calls and the model route: reading. */
export const MODEL_CALLS_ACCESS = {
  'ModelCallsController.listOfSession': ['read'],
  'ModelCallsController.listOfRun': ['read'],
  'ModelCallsController.get': ['read'],
  'Query.modelCall': ['read'],
  'Query.modelRoute': ['read'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class ModelCallsAccess implements AccessRuleSet {
  readonly rules: AccessRules = MODEL_CALLS_ACCESS;
}
