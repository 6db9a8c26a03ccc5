import { Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { Contributes, contributionsTo, InvalidInputError } from '../common';
import type { ToolResult } from '../copilot-cli';
import type { ToolSpec } from './session-config';

export interface ToolInvocation {
  sessionId: string;
  childSessionId?: string;
  agentName?: string;
  toolCallId: string;
  toolName: string;
  arguments: unknown;
  /** issue 28: the call's execute_tool span in its session's current trace, as a W3C traceparent (sent to webhooks). */
  traceparent?: string;
}

export type BuiltinTool = (invocation: ToolInvocation) => Promise<ToolResult | string | Record<string, unknown>>;

/** The slot other contexts' built-in tools are marked with (`@ProvidesBuiltinTools()`). */
export const BUILTIN_TOOL_SOURCES = 'switchboard:builtin-tool-source';

/** A provider, in any module, of built-in tools by handler name and of named groups of their specs. */
export interface BuiltinToolProvider {
  builtinTools(): { tools: Record<string, BuiltinTool>; groups?: Record<string, ToolSpec[]> };
}

/** Marks a BuiltinToolProvider: BuiltinToolCatalog finds it at init (see `Contributes`). */
export function ProvidesBuiltinTools(): ClassDecorator {
  return Contributes(BUILTIN_TOOL_SOURCES);
}

/**
 * Tools Switchboard implements itself (`handler: {type: "builtin", name}`): those of every provider
 * marked `@ProvidesBuiltinTools()`, in whichever module (tests may register by hand).
 */
@Injectable()
export class BuiltinToolCatalog implements OnModuleInit {
  private readonly tools = new Map<string, BuiltinTool>();
  private readonly groups = new Map<string, ToolSpec[]>();

  constructor(@Optional() private readonly discovery?: DiscoveryService) {}

  onModuleInit(): void {
    for (const provider of contributionsTo<BuiltinToolProvider>(this.discovery, BUILTIN_TOOL_SOURCES)) {
      const { tools, groups = {} } = provider.builtinTools();
      for (const [group, specs] of Object.entries(groups)) this.registerGroup(group, specs);
      for (const [name, tool] of Object.entries(tools)) this.register(name, tool);
    }
  }

  register(name: string, tool: BuiltinTool): void {
    if (this.tools.has(name)) throw new Error(`Built-in tool ${name} is registered twice`);
    this.tools.set(name, tool);
  }

  /** A named set of tool specs a session can ask for with one flag (e.g. `delegation`). */
  registerGroup(group: string, specs: ToolSpec[]): void {
    if (this.groups.has(group)) throw new Error(`Built-in tool group ${group} is registered twice`);
    this.groups.set(group, specs);
  }

  group(group: string): ToolSpec[] {
    const specs = this.groups.get(group);
    if (!specs) throw new Error(`Built-in tool group ${group} is not registered`);
    return specs;
  }

  get(name: string): BuiltinTool | undefined {
    return this.tools.get(name);
  }

  /** Refuses a session whose tools name a built-in handler that does not exist. */
  assertKnown(tools: readonly ToolSpec[]): void {
    const unknown = tools.filter((t) => t.handler.type === 'builtin' && !this.tools.has(t.handler.name));
    if (unknown.length > 0) {
      const known = [...this.tools.keys()];
      throw new InvalidInputError(
        `Unknown built-in tool handler${unknown.length > 1 ? 's' : ''}: ${unknown
          .map((t) => `${t.name} -> ${(t.handler as { name: string }).name}`)
          .join(', ')}; known built-ins: ${known.length ? known.join(', ') : 'none'}`,
      );
    }
  }
}
