import { Contributes } from '../common';
import { ACCESS_RULES, type AccessRules, type AccessRuleSet } from '../identity';

/** Approvals: everyone sees the inbox; only approvers (and admins) decide, host kinds included. */
export const APPROVALS_ACCESS = {
  'ApprovalsController.list': ['read'],
  'ApprovalsController.decide': ['approve'],
  'Query.approvals': ['read'],
  'Subscription.approvalsChanged': ['read'],
  'Mutation.decideApproval': ['approve'],
  'Mcp.list_approvals': ['read'],
  'Mcp.decide_approval': ['approve'],
} as const satisfies AccessRules;

/** Contributes these rules to the one table `IdentityGuard` enforces (`AccessPolicy`, found through discovery). */
@Contributes(ACCESS_RULES)
export class ApprovalsAccess implements AccessRuleSet {
  readonly rules: AccessRules = APPROVALS_ACCESS;
}
