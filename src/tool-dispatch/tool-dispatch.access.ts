import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** Questions agents ask: everyone sees them; whoever may operate the session or decide its approvals answers. */
export const TOOL_DISPATCH_ACCESS = {
  'SessionRequestsController.requests': ['read'],
  'SessionRequestsController.pending': ['read'],
  'SessionRequestsController.answer': ['operate', 'approve'],
  'Query.pendingUserInput': ['read'],
  'Mutation.answerUserInput': ['operate', 'approve'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class ToolDispatchAccess implements AccessRuleSet {
  readonly rules: AccessRules = TOOL_DISPATCH_ACCESS;
}
