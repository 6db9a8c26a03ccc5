import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** Pauses of runs and sessions (issue 26): seeing one is reading, pausing and unpausing is operating. */
export const PAUSES_ACCESS = {
  'PausesController.sessionPause': ['read'],
  'PausesController.pauseRun': ['operate'],
  'PausesController.unpauseRun': ['operate'],
  'PausesController.pauseSession': ['operate'],
  'PausesController.unpauseSession': ['operate'],
  'Mutation.pauseRun': ['operate'],
  'Mutation.unpauseRun': ['operate'],
  'Mutation.pauseSession': ['operate'],
  'Mutation.unpauseSession': ['operate'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class PausesAccess implements AccessRuleSet {
  readonly rules: AccessRules = PAUSES_ACCESS;
}
