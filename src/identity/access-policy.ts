import { type Permission, ROLES, type Role, roleMay } from './principal';

/**
 * What an operation needs: one permission, or several of which any one will do (a question an agent
 * asks is answered by whoever may operate the session or decide its approvals). `public`: the route is
 * open without a principal (`@Public()`; health probes, the sign-in flow).
 */
export type AccessRule = 'public' | readonly [Permission, ...Permission[]];

/** Rules by operation name: `<Controller>.<method>` for REST (SSE streams are controller methods too), `<Query|Mutation|Subscription>.<field>` for GraphQL, `Mcp.<tool>` / `Mcp.resource.<name>` for MCP. */
export type AccessRules = Readonly<Record<string, AccessRule>>;

/**
 * issue 27, issue 40: each context writes the rules of its own operations in `src/<context>/<context>.access.ts`
 * and contributes them to this slot (`@Contributes(ACCESS_RULES)` on a provider of its module). `AccessPolicy`
 * gathers them into the one table `IdentityGuard` enforces on every transport (HTTP and graphql-ws); an operation
 * missing from it is refused to everyone, and the role-matrix test (`test/e2e/access-policy.e2e-spec.ts`) fails on it.
 * `docs/security.md` shows the table (`access-policy.spec.ts` checks it matches).
 */
export const ACCESS_RULES = 'switchboard:access-rules';

/** What a context contributes: the rules of its operations. */
export interface AccessRuleSet {
  readonly rules: AccessRules;
}

/** The contexts' rules as one table, by operation name in alphabetical order; an operation two contexts name is a defect. */
export function accessTableOf(sets: readonly AccessRuleSet[]): AccessRules {
  const table = new Map<string, AccessRule>();
  for (const { rules } of sets) {
    for (const [operation, rule] of Object.entries(rules)) {
      if (table.has(operation)) throw new Error(`${operation} has two access rules: one context owns each operation`);
      table.set(operation, rule);
    }
  }
  return Object.fromEntries([...table].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** An operation's rule in a table (never a lookup on the object's prototype). */
export function ruleIn(table: AccessRules, operation: string): AccessRule | undefined {
  return Object.hasOwn(table, operation) ? table[operation] : undefined;
}

/** The roles a rule lets in, least first. */
export function rolesAllowed(rule: AccessRule): Role[] {
  return rule === 'public' ? [...ROLES] : ROLES.filter((role) => rule.some((permission) => roleMay(role, permission)));
}

export type AccessVerdict =
  { allowed: true } | { allowed: false; reason: 'no_rule' | 'denied'; needs: readonly Permission[]; roles: Role[]; message: string };

/**
 * Whether a role may call an operation, and if not, the words of the 403: what it needs, which roles
 * have it, and what the caller has. An operation without a rule is refused to every role (fail closed).
 */
export function judgeAccessIn(table: AccessRules, operation: string, caller: { name: string; role: Role }): AccessVerdict {
  const rule = ruleIn(table, operation);
  if (rule === undefined) {
    return {
      allowed: false,
      reason: 'no_rule',
      needs: [],
      roles: [],
      message: `${operation} has no access rule (its context's <context>.access.ts), so it is refused to every role until one is added`,
    };
  }
  if (rule === 'public' || rule.some((permission) => roleMay(caller.role, permission))) return { allowed: true };
  const roles = rolesAllowed(rule);
  return {
    allowed: false,
    reason: 'denied',
    needs: rule,
    roles,
    message: `${operation} needs the ${rule.join(' or ')} permission (roles: ${roles.join(', ')}); ${caller.name} has the ${caller.role} role`,
  };
}
