import { ForbiddenException, Injectable } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { contributionsTo } from '../common';
import type { Principal, Role } from './principal';
import {
  ACCESS_RULES,
  type AccessRule,
  type AccessRuleSet,
  type AccessRules,
  type AccessVerdict,
  accessTableOf,
  judgeAccessIn,
  ruleIn,
} from './access-policy';

/**
 * The app's one access table: every context's `<context>.access.ts` rules, found through discovery
 * (`@Contributes(ACCESS_RULES)`), so adding a context edits nothing here. Gathered on first use, once
 * every provider exists (the OpenAPI document, built from the app before its init hooks run, asks too).
 */
@Injectable()
export class AccessPolicy {
  private table: AccessRules | undefined;

  constructor(private readonly discovery: DiscoveryService) {}

  rules(): AccessRules {
    return (this.table ??= accessTableOf(contributionsTo<AccessRuleSet>(this.discovery, ACCESS_RULES)));
  }

  ruleOf(operation: string): AccessRule | undefined {
    return ruleIn(this.rules(), operation);
  }

  judge(operation: string, caller: { name: string; role: Role }): AccessVerdict {
    return judgeAccessIn(this.rules(), operation, caller);
  }

  /** Through, or the 403 the API answers: the permission needed, the roles that have it, and the caller's role. */
  assertAllowed(operation: string, principal: Principal): void {
    const verdict = this.judge(operation, principal);
    if (verdict.allowed) return;
    throw new ForbiddenException({
      code: 'forbidden',
      message: verdict.message,
      details: { needs: verdict.needs, roles: verdict.roles, role: principal.role },
    });
  }
}
