import { Inject, Injectable } from '@nestjs/common';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';

export interface McpResolution {
  servers: Record<string, unknown>;
  /** Names with no entry in the file: a session that needs them cannot start. */
  missing: string[];
  /** Set when the file exists but cannot be read or parsed. */
  fileProblem?: string;
}

/**
 * spec: agent-teams FR-4, "MCP server names are resolved to full configs". Reads the standard
 * mcp-config.json shape `{ "mcpServers": { name: config } }`; re-read when the file changes.
 */
@Injectable()
export class McpServerRegistry {
  private readonly file: string;
  private cache?: { mtimeMs: number; servers: Record<string, unknown> };

  constructor(@Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig) {
    this.file = path.resolve(config.mcpConfigFile);
  }

  resolve(names: readonly string[]): McpResolution {
    if (names.length === 0) return { servers: {}, missing: [] };
    let all: Record<string, unknown>;
    try {
      all = this.load();
    } catch (error) {
      return { servers: {}, missing: [...names], fileProblem: `${this.file}: ${(error as Error).message}` };
    }
    const servers: Record<string, unknown> = {};
    const missing: string[] = [];
    for (const name of names) {
      if (Object.prototype.hasOwnProperty.call(all, name)) servers[name] = all[name];
      else missing.push(name);
    }
    return { servers, missing };
  }

  /** Each configured server's name and kind, by name; a file that cannot be read is a problem, not an error. */
  entries(): { servers: Array<{ name: string; type: string }>; problem?: string } {
    let all: Record<string, unknown>;
    try {
      all = this.load();
    } catch (error) {
      return { servers: [], problem: `${this.file}: ${(error as Error).message}` };
    }
    const servers = Object.entries(all).map(([name, config]) => ({ name, type: kindOf(config) }));
    return { servers: servers.sort((a, b) => a.name.localeCompare(b.name)) };
  }

  describeSource(): string {
    return this.file;
  }

  private load(): Record<string, unknown> {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(this.file);
    } catch {
      return {}; // no file: no MCP servers configured
    }
    if (this.cache && this.cache.mtimeMs === stat.mtimeMs) return this.cache.servers;
    const parsed = JSON.parse(fs.readFileSync(this.file, 'utf8')) as { mcpServers?: unknown };
    const servers = parsed?.mcpServers;
    if (!servers || typeof servers !== 'object' || Array.isArray(servers)) {
      throw new Error('expected an object { "mcpServers": { "<name>": { ... } } }');
    }
    this.cache = { mtimeMs: stat.mtimeMs, servers: servers as Record<string, unknown> };
    return this.cache.servers;
  }
}

function kindOf(config: unknown): string {
  const entry = (config ?? {}) as { type?: unknown; command?: unknown; url?: unknown };
  if (typeof entry.type === 'string') return entry.type;
  if (entry.command !== undefined) return 'local';
  return entry.url !== undefined ? 'http' : 'unknown';
}
