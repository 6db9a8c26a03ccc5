import { type Permission, ROLES, type Role, roleMay } from './principal';

/**
 * What an operation needs: one permission, or several of which any one will do (a question an agent
 * asks is answered by whoever may operate the session or decide its approvals). `public`: the route is
 * open without a principal (`@Public()`; health probes, the sign-in flow).
 */
export type AccessRule = 'public' | readonly [Permission, ...Permission[]];

/**
 * issue 27: the one table of what every operation needs, by its name: `<Controller>.<method>` for REST
 * (SSE streams are controller methods too) and `<Query|Mutation|Subscription>.<field>` for GraphQL over
 * HTTP and graphql-ws. `IdentityGuard` enforces it on every transport; an operation missing here is
 * refused to everyone, and the role-matrix test (`test/e2e/access-policy.e2e-spec.ts`) fails on it.
 * `docs/security.md` shows this table (`access-policy.spec.ts` checks it matches).
 */
export const ACCESS_POLICY = {
  // Agent library (spec agent-teams): reading it is for everyone, changing it is the admin's.
  'AgentsController.list': ['read'],
  'AgentsController.get': ['read'],
  'AgentsController.eligible': ['read'],
  'AgentsController.export': ['read'],
  'AgentsController.create': ['administer'],
  'AgentsController.update': ['administer'],
  'AgentsController.delete': ['administer'],
  'AgentsController.import': ['administer'],
  'Query.agents': ['read'],
  'Query.agent': ['read'],
  'Query.eligibleSubAgents': ['read'],
  'Query.agentDraftCheck': ['read'],
  'Query.agentFiles': ['read'],
  'Query.mcpServers': ['read'],
  'Query.knownBuiltinTools': ['read'],
  'Query.hookTypes': ['read'],
  'Subscription.agentLibraryChanged': ['read'],
  'Mutation.createAgent': ['administer'],
  'Mutation.updateAgent': ['administer'],
  'Mutation.deleteAgent': ['administer'],
  'Mutation.importAgents': ['administer'],

  // Sessions: reading them, their stream (SSE) and options; operating them.
  'SessionsController.list': ['read'],
  'SessionsController.get': ['read'],
  'SessionsController.events': ['read'],
  'SessionOptionsController.get': ['read'],
  'SessionBudgetController.budget': ['read'],
  'SessionRequestsController.requests': ['read'],
  'SessionRequestsController.pending': ['read'],
  'SessionsController.create': ['operate'],
  'SessionsController.send': ['operate'],
  'SessionsController.change': ['operate'],
  'SessionsController.resume': ['operate'],
  'SessionsController.abort': ['operate'],
  'SessionsController.steer': ['operate'],
  'SessionsController.destroy': ['operate'],
  'SessionRequestsController.answer': ['operate', 'approve'],
  'Query.sessions': ['read'],
  'Query.session': ['read'],
  'Query.sessionHistory': ['read'],
  'Query.sessionOptions': ['read'],
  'Query.pendingUserInput': ['read'],
  'Subscription.sessionEvents': ['read'],
  'Mutation.createSession': ['operate'],
  'Mutation.sendMessage': ['operate'],
  'Mutation.changeSessionSubAgents': ['operate'],
  'Mutation.resumeSession': ['operate'],
  'Mutation.abortSessionTurn': ['operate'],
  'Mutation.steerSession': ['operate'],
  'Mutation.destroySession': ['operate'],
  'Mutation.answerUserInput': ['operate', 'approve'],

  // Runs (delegation): reading; starting, stopping, steering, resuming, replaying and forking them.
  'RunsController.list': ['read'],
  'RunsController.get': ['read'],
  'RunsController.output': ['read'],
  'RunsController.tree': ['read'],
  'RunsController.start': ['operate'],
  'RunsController.stop': ['operate'],
  'RunsController.steer': ['operate'],
  'RunsController.resume': ['operate'],
  'RunsController.replay': ['operate'],
  'RunsController.fork': ['operate'],
  'Query.runs': ['read'],
  'Query.run': ['read'],
  'Subscription.runEvents': ['read'],
  'Mutation.agentRun': ['operate'],
  'Mutation.agentStop': ['operate'],
  'Mutation.resumeRun': ['operate'],
  'Mutation.steerRun': ['operate'],
  'Mutation.replayRun': ['operate'],
  'Mutation.forkRun': ['operate'],

  // Pauses of runs and sessions (issue 26).
  'PausesController.sessionPause': ['read'],
  'PausesController.pauseRun': ['operate'],
  'PausesController.unpauseRun': ['operate'],
  'PausesController.pauseSession': ['operate'],
  'PausesController.unpauseSession': ['operate'],
  'Mutation.pauseRun': ['operate'],
  'Mutation.unpauseRun': ['operate'],
  'Mutation.pauseSession': ['operate'],
  'Mutation.unpauseSession': ['operate'],

  // Schedules (issue 30): reading them and previewing a timing; creating, changing, deleting and running them.
  'SchedulesController.list': ['read'],
  'SchedulesController.get': ['read'],
  'SchedulesController.firings': ['read'],
  'SchedulesController.preview': ['read'],
  'SchedulesController.create': ['operate'],
  'SchedulesController.update': ['operate'],
  'SchedulesController.delete': ['operate'],
  'SchedulesController.run': ['operate'],

  // Approvals: everyone sees the inbox; only approvers (and admins) decide, host kinds included.
  'ApprovalsController.list': ['read'],
  'ApprovalsController.decide': ['approve'],
  'Query.approvals': ['read'],
  'Subscription.approvalsChanged': ['read'],
  'Mutation.decideApproval': ['approve'],

  // Schedules (issue 30), over GraphQL: reading them and the preview; changing them and "run now" start runs.
  'Query.schedules': ['read'],
  'Query.schedule': ['read'],
  'Query.schedulePreview': ['read'],
  'Subscription.scheduleFirings': ['read'],
  'Mutation.createSchedule': ['operate'],
  'Mutation.updateSchedule': ['operate'],
  'Mutation.setScheduleEnabled': ['operate'],
  'Mutation.deleteSchedule': ['operate'],
  'Mutation.runScheduleNow': ['operate'],

  // Model calls, the event log and the audit.
  'ModelCallsController.listOfSession': ['read'],
  'ModelCallsController.listOfRun': ['read'],
  'ModelCallsController.get': ['read'],
  'Query.modelCall': ['read'],
  'Query.modelRoute': ['read'],
  'EventLogController.listEvents': ['read'],
  'EventLogController.listAudit': ['read'],
  'EventLogController.exportAudit': ['read'],
  'EventLogController.getStream': ['read'],
  'EventLogController.listStreamEvents': ['read'],
  'Query.auditLog': ['read'],
  'Query.auditEvent': ['read'],

  // Who calls, and the keys programs call with.
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

  // Service state: /metrics is open only when SWITCHBOARD_METRICS_PUBLIC says so (`@PublicWhen`).
  'MetricsController.scrape': ['read'],
  'HealthController.health': 'public',
  'HealthController.live': 'public',
  'HealthController.ready': 'public',
  'SignInController.login': 'public',
  'SignInController.callback': 'public',
  'SignInController.logout': 'public',
} as const satisfies Record<string, AccessRule>;

export type OperationName = keyof typeof ACCESS_POLICY;

export function accessRuleOf(operation: string): AccessRule | undefined {
  return Object.hasOwn(ACCESS_POLICY, operation) ? ACCESS_POLICY[operation as OperationName] : undefined;
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
export function judgeAccess(operation: string, caller: { name: string; role: Role }): AccessVerdict {
  const rule = accessRuleOf(operation);
  if (rule === undefined) {
    return {
      allowed: false,
      reason: 'no_rule',
      needs: [],
      roles: [],
      message: `${operation} has no access rule (src/identity/access-policy.ts), so it is refused to every role until one is added`,
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
