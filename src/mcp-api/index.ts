/**
 * The mcp-api context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside mcp-api/ import each other directly, never this file.
 */
export { McpApiModule } from './mcp-api.module';
export { MCP_TOOLS, mcpTool } from './mcp-tools';
export type { McpResourceTemplate, McpTaskView, McpTool, McpToolAnswer, McpToolContext, McpToolSet, McpToolTasks } from './mcp-tools';
