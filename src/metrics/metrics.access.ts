import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** /metrics needs read, unless SWITCHBOARD_METRICS_PUBLIC opens it (`@PublicWhen`). */
export const METRICS_ACCESS = {
  'MetricsController.scrape': ['read'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class MetricsAccess implements AccessRuleSet {
  readonly rules: AccessRules = METRICS_ACCESS;
}
