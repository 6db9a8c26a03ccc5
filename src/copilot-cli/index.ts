/**
 * The copilot-cli context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside copilot-cli/ import each other directly, never this file.
 */
export { BuiltinToolList } from './builtin-tools';
export { MODEL_ROUTE_BASE_URL } from './cli-protocol';
export type { CliCustomAgent, CliSessionEvent, CustomAgentConfig, ModelRouteState, ToolDefinition, ToolResult } from './cli-protocol';
export { cliStartProblem } from './cli-startability';
export { CopilotCliConnection } from './copilot-cli-connection';
export type { CliExit } from './copilot-cli-connection';
export { CopilotCliConnectionLostError, CopilotCliUnavailableError } from './copilot-cli.errors';
export { CopilotCliModule } from './copilot-cli.module';
