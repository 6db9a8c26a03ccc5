import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** Schedules (issue 30): reading them and previewing a timing; creating, changing, deleting and running them start runs, so operate. */
export const SCHEDULES_ACCESS = {
  'SchedulesController.list': ['read'],
  'SchedulesController.get': ['read'],
  'SchedulesController.firings': ['read'],
  'SchedulesController.preview': ['read'],
  'SchedulesController.create': ['operate'],
  'SchedulesController.update': ['operate'],
  'SchedulesController.delete': ['operate'],
  'SchedulesController.run': ['operate'],
  'Query.schedules': ['read'],
  'Query.schedule': ['read'],
  'Query.schedulePreview': ['read'],
  'Subscription.scheduleFirings': ['read'],
  'Mutation.createSchedule': ['operate'],
  'Mutation.updateSchedule': ['operate'],
  'Mutation.setScheduleEnabled': ['operate'],
  'Mutation.deleteSchedule': ['operate'],
  'Mutation.runScheduleNow': ['operate'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class SchedulesAccess implements AccessRuleSet {
  readonly rules: AccessRules = SCHEDULES_ACCESS;
}
