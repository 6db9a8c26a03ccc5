import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from './access-policy';

/** Who calls (me, for everyone), the keys programs call with and the sign-in sessions (the admin's), and the sign-in flow itself (public). */
export const IDENTITY_ACCESS = {
  'MeController.me': ['read'],
  'Query.me': ['read'],
  'ApiKeysController.create': ['administer'],
  'ApiKeysController.list': ['administer'],
  'ApiKeysController.revoke': ['administer'],
  'Query.apiKeys': ['administer'],
  'Mutation.createApiKey': ['administer'],
  'Mutation.revokeApiKey': ['administer'],
  'SignInSessionsController.list': ['administer'],
  'SignInSessionsController.revoke': ['administer'],
  'Query.signInSessions': ['administer'],
  'Mutation.revokeSignInSession': ['administer'],
  'SignInController.login': 'public',
  'SignInController.callback': 'public',
  'SignInController.logout': 'public',
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class IdentityAccess implements AccessRuleSet {
  readonly rules: AccessRules = IDENTITY_ACCESS;
}
