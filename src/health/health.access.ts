import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** Health probes are public: load balancers call them without a credential. */
export const HEALTH_ACCESS = {
  'HealthController.health': 'public',
  'HealthController.live': 'public',
  'HealthController.ready': 'public',
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class HealthAccess implements AccessRuleSet {
  readonly rules: AccessRules = HEALTH_ACCESS;
}
