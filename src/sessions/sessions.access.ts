import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** Sessions: reading them, their stream (SSE) and options is for everyone; creating and driving them needs operate. */
export const SESSIONS_ACCESS = {
  'SessionsController.list': ['read'],
  'SessionsController.get': ['read'],
  'SessionsController.events': ['read'],
  'SessionOptionsController.get': ['read'],
  'SessionsController.create': ['operate'],
  'SessionsController.send': ['operate'],
  'SessionsController.change': ['operate'],
  'SessionsController.resume': ['operate'],
  'SessionsController.abort': ['operate'],
  'SessionsController.steer': ['operate'],
  'SessionsController.destroy': ['operate'],
  'Query.sessions': ['read'],
  'Query.session': ['read'],
  'Query.sessionHistory': ['read'],
  'Query.sessionOptions': ['read'],
  'Subscription.sessionEvents': ['read'],
  'Mutation.createSession': ['operate'],
  'Mutation.sendMessage': ['operate'],
  'Mutation.changeSessionSubAgents': ['operate'],
  'Mutation.resumeSession': ['operate'],
  'Mutation.abortSessionTurn': ['operate'],
  'Mutation.destroySession': ['operate'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class SessionsAccess implements AccessRuleSet {
  readonly rules: AccessRules = SESSIONS_ACCESS;
}
