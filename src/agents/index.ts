/**
 * The agents context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside agents/ import each other directly, never this file.
 */
export { agentFieldsSchema } from './agent-definition';
export { subAgentProblems } from './agent-eligibility';
export type { AgentFile } from './agent-files';
export { HOOK_TYPES, failureModeOf, hookListSchema } from './agent-hooks';
export type { HookFailureMode, HookSpec, HookType } from './agent-hooks';
export { AgentLibrary } from './agent-library';
export type { LibraryAgent } from './agent-library';
export {
  MAX_BUDGET_COST,
  MAX_BUDGET_LIMIT,
  PERMISSION_KINDS,
  budgetCostValue,
  budgetInputSchema,
  budgetLimitValue,
  delegationByDefault,
  listedNameSchema,
  agentWorkspaceSchema,
} from './agent-session-defaults';
export type { BudgetInput, PermissionKind } from './agent-session-defaults';
export { AgentImportRejectedError, UnknownAgentError } from './agent.errors';
export { AgentsModule } from './agents.module';
export { ImportAgents } from './commands/import-agents/import-agents.command';
export type { ImportAgentsResult } from './commands/import-agents/import-agents.command';
export { AgentHookInput } from './graphql/agent.model';
export { McpServerRegistry } from './mcp-server-registry';
export { ExportAgents } from './queries/export-agents/export-agents.query';
export { TeamAssembler } from './team-assembler';
export type { TeamAssembly } from './team-assembler';
