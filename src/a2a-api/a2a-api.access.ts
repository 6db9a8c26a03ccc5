import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/**
 * The routes under `/a2a` are open to every role (reading a card, reaching the protocol); each A2A
 * operation has its own rule, checked by the controller once it knows the operation (a2a-operations.ts).
 */
export const A2A_API_ACCESS = {
  'A2aController.card': ['read'],
  'A2aController.jsonRpc': ['read'],
  'A2aController.rest': ['read'],
  'A2a.SendMessage': ['operate'],
  'A2a.CancelTask': ['operate'],
  'A2a.PushNotifications': ['operate'],
  'A2a.GetTask': ['read'],
  'A2a.ListTasks': ['read'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class A2aApiAccess implements AccessRuleSet {
  readonly rules: AccessRules = A2A_API_ACCESS;
}
