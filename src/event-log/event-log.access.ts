import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** The event log and the audit: reading. */
export const EVENT_LOG_ACCESS = {
  'EventLogController.listEvents': ['read'],
  'EventLogController.listAudit': ['read'],
  'EventLogController.exportAudit': ['read'],
  'EventLogController.getStream': ['read'],
  'EventLogController.listStreamEvents': ['read'],
  'Query.auditLog': ['read'],
  'Query.auditEvent': ['read'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class EventLogAccess implements AccessRuleSet {
  readonly rules: AccessRules = EVENT_LOG_ACCESS;
}
