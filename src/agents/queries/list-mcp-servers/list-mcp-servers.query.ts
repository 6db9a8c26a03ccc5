import { Query } from '@nestjs/cqrs';

export interface McpServerEntry {
  name: string;
  /** The entry's `type` (local, stdio, http, sse) as the operator wrote it; `local` when it has a command. */
  type: string;
}

/**
 * The MCP servers agents may name (the operator's SWITCHBOARD_MCP_CONFIG), without their configs: an
 * editor shows names to pick, never the commands, URLs or headers behind them.
 */
export class ListMcpServers extends Query<{ servers: McpServerEntry[]; problem?: string }> {}
