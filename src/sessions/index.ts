/**
 * The sessions context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside sessions/ import each other directly, never this file.
 */
export { BuiltinToolCatalog, ProvidesBuiltinTools } from './builtin-tool-catalog';
export type { BuiltinTool, BuiltinToolProvider, ToolInvocation } from './builtin-tool-catalog';
export { AbortSession } from './commands/abort-session/abort-session.command';
export { CreateSession } from './commands/create-session/create-session.command';
export { agentPermissionPolicyOf } from './commands/create-session/requested-session-config';
export { DestroySession } from './commands/destroy-session/destroy-session.command';
export { ResumeSession } from './commands/resume-session/resume-session.command';
export { SendMessage } from './commands/send-message/send-message.command';
export { SteerSession } from './commands/steer-session/steer-session.command';
export type { AgentSteered } from './commands/steer-session/steer-session.command';
export { PermissionPolicyInput, Session, SessionPermissionPolicy, SessionSummary, SubagentInstance, WorkspaceInput } from './graphql/session.model';
export { HeldWork } from './held-work';
export { LiveSession } from './live-session';
export { LiveSessionLookup } from './live-session-lookup';
export { SessionsProjection } from './projections/sessions.projection';
export { GetSession } from './queries/get-session/get-session.query';
export { ListThreadSubagents } from './queries/list-thread-subagents/list-thread-subagents.query';
export type { SubagentInstanceRow } from './queries/list-thread-subagents/list-thread-subagents.query';
export { BUDGET_LIMITS, assertBudgetAvailable, budgetApiInputSchema, budgetInputSchema, routeForBudget, toBudget } from './session-budget';
export type { Budget, BudgetInput, BudgetLimit } from './session-budget';
export { createSessionSchema, permissionPolicySchema, workspaceRequestSchema } from './session-config';
export type { CustomAgentConfig, PermissionPolicy, SessionConfig, SessionReplay, ToolSpec } from './session-config';
export { SessionRegistry } from './session-registry';
export { foreignSessionAppend } from './session-stream-appends';
export type { ForeignSessionEvent } from './session-stream-appends';
export { onSession } from './session.catalog';
export { SessionNotFoundError, SessionNotLiveError, TooManyLiveSessionsError } from './session.errors';
export { CLI_EVENT_PREFIX, CliRecords, SessionEvents, readCliRecord, readSessionEvent } from './session.events';
export type {
  CliAssistantMessagePayload,
  CliRecordEvent,
  CliSessionErrorPayload,
  CliToolExecutionCompletePayload,
  CliToolExecutionStartPayload,
  RecordedCliEventData,
  SessionInterrupted,
  SessionMessageFailed,
  SessionMessageSent,
  SessionStatus,
} from './session.events';
export { SessionsReadModel } from './sessions-read-model';
export { agentSteered } from './sessions.api-answers';
export { SessionsModule } from './sessions.module';
export { steerRunSchema, steerSchema } from './steer-request';
export { SubagentLaunchesReadModel } from './subagent-launches-read-model';
export { ProvidesTurnReminders } from './turn-reminders';
export type { TurnReminder, TurnReminderProvider } from './turn-reminders';
