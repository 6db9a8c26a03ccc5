import { Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import type { HookSpec } from '../agents';
import { type OutboundVerdict, OutboundUrlGuard } from '../outbound';
import type { PermissionKindOption } from './queries/get-session-options/get-session-options.query';
import { type CustomAgentConfig, PERMISSION_KINDS, type PermissionKind, type PermissionPolicy, type ToolSpec } from './session-config';
import { SessionEndpointRefusedError } from './session.errors';

const COMMAND_TYPES = new Set(['local', 'stdio']);
const REMOTE_TYPES = new Set(['http', 'sse']);
/** Permission kinds whose approval lets the model act on this host: run programs, write files, fetch any URL. */
export const HOST_PERMISSION_KINDS: readonly PermissionKind[] = ['shell', 'write', 'url'];
const HOST_PERMISSIONS_SWITCH = 'SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true';

/** What approving each kind lets the model do, for a person choosing a policy. */
const PERMISSION_KIND_DESCRIPTIONS: Record<PermissionKind, string> = {
  shell: 'run shell commands on this host',
  write: 'create and change files',
  read: 'read files',
  url: 'fetch URLs',
  mcp: "call MCP servers' tools",
  'custom-tool': "call the session's own tools (webhooks, agent_run)",
  memory: 'store memories',
};

type Problem = { field: string; reason: string };

/**
 * What a session request may point this host at (issue 10 §1-2). MCP servers that run a command
 * come from the operator's MCP config (by name, through library agents); an inline one is refused
 * unless SWITCHBOARD_ALLOW_INLINE_MCP=true. Inline remote MCP URLs and webhook URLs pass the
 * outbound guard; a webhook host that does not resolve yet is left to the guard at call time.
 */
@Injectable()
export class SessionEndpointPolicy implements OnApplicationBootstrap {
  private readonly logger = new Logger(SessionEndpointPolicy.name);
  private readonly allowInlineMcp: boolean;
  private readonly allowHostPermissions: boolean;

  constructor(
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
    private readonly outbound: OutboundUrlGuard,
  ) {
    this.allowInlineMcp = config.security.allowInlineMcp;
    this.allowHostPermissions = config.security.allowHostPermissions;
  }

  onApplicationBootstrap(): void {
    if (this.allowInlineMcp) {
      this.logger.warn('SWITCHBOARD_ALLOW_INLINE_MCP=true: API callers can run programs on this host through inline MCP servers');
    }
    if (this.allowHostPermissions) {
      this.logger.warn(
        'SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true: API callers can let the model run shell commands, write files, read any file and fetch URLs on this host',
      );
    }
  }

  /** Each permission kind as the checks below treat it, for a console to offer (GET /api/session-options). */
  permissionKindOptions(): PermissionKindOption[] {
    return PERMISSION_KINDS.map((kind) => {
      const refused = !this.allowHostPermissions && HOST_PERMISSION_KINDS.includes(kind);
      return {
        kind,
        description: PERMISSION_KIND_DESCRIPTIONS[kind],
        allowed: !refused,
        refusedReason: refused ? `lets the model act on this host (${PERMISSION_KIND_DESCRIPTIONS[kind]}): the operator has not allowed it` : null,
        enabledBy: refused ? HOST_PERMISSIONS_SWITCH : null,
        note:
          kind === 'read' && !this.allowHostPermissions ? `stays inside the working directory; ${HOST_PERMISSIONS_SWITCH} lets it reach any file` : null,
      };
    });
  }

  /** Throws SessionEndpointRefusedError naming every refused field. `tools` unset: MCP servers and permissions only (resume). */
  async assertAllowed(request: {
    customAgents: readonly CustomAgentConfig[];
    tools?: readonly ToolSpec[];
    permissionPolicy?: PermissionPolicy;
    /** Where the policy came from, when not the request's `permissionPolicy` (an agent's default). */
    permissionPolicyField?: string;
    hooks?: readonly HookSpec[];
  }): Promise<void> {
    // One resolution per origin: a request may list 128 tools on the same webhook host.
    const verdicts = new Map<string, Promise<OutboundVerdict>>();
    const check = (url: string) => {
      const key = originOf(url);
      if (!verdicts.has(key)) verdicts.set(key, this.outbound.check(url));
      return verdicts.get(key)!;
    };
    const checks: Array<Promise<Problem | undefined>> = this.permissionProblems(request.permissionPolicy, request.permissionPolicyField).map((p) =>
      Promise.resolve(p),
    );
    request.customAgents.forEach((agent, i) => {
      for (const [name, server] of Object.entries(agent.mcpServers ?? {})) {
        checks.push(this.mcpServerProblem(`customAgents[${i}].mcpServers.${name}`, server, check));
      }
    });
    (request.tools ?? []).forEach((tool, i) => {
      if (tool.handler.type !== 'webhook') return;
      const field = `tools[${i}].handler.url`;
      checks.push(check(tool.handler.url).then((v) => (v.allowed || v.unresolved ? undefined : { field, reason: refusedUrl(v.reason) })));
    });
    (request.hooks ?? []).forEach((hook, i) => {
      const field = `hooks[${i}].url`;
      checks.push(check(hook.url).then((v) => (v.allowed || v.unresolved ? undefined : { field, reason: refusedUrl(v.reason) })));
    });
    const problems = (await Promise.all(checks)).filter((p): p is Problem => p !== undefined);
    if (problems.length > 0) throw new SessionEndpointRefusedError(problems);
  }

  /**
   * Approving shell, write or url lets the model act on this host as the service's user: the operator
   * decides. Asking for them is refused alike: only an approver or admin may decide (the access policy),
   * but whether host kinds may be approved on this host at all is the operator's call, not the API's.
   */
  private permissionProblems(policy: PermissionPolicy | undefined, from?: string): Problem[] {
    if (this.allowHostPermissions || !policy) return [];
    const fieldOf = (list: 'allowKinds' | 'askKinds', i: number) =>
      from ? `${from}.${list === 'allowKinds' ? 'allow_kinds' : 'ask_kinds'}[${i}]` : `permissionPolicy.${list}[${i}]`;
    const refused = (list: 'allowKinds' | 'askKinds', what: (kind: string) => string) =>
      (policy[list] ?? []).flatMap((kind, i) =>
        HOST_PERMISSION_KINDS.includes(kind)
          ? [
              {
                field: fieldOf(list, i),
                reason: `${what(kind)} (run programs, write files or fetch any URL): refused unless the operator sets ${HOST_PERMISSIONS_SWITCH}`,
              },
            ]
          : [],
      );
    return [
      ...refused('allowKinds', (kind) => `approving ${kind} requests lets the model act on this host`),
      ...refused('askKinds', (kind) => `asking to approve ${kind} requests lets an approver or admin let the model act on this host`),
    ];
  }

  private async mcpServerProblem(field: string, server: unknown, check: (url: string) => Promise<OutboundVerdict>): Promise<Problem | undefined> {
    if (server === null || typeof server !== 'object' || Array.isArray(server)) return { field, reason: 'must be an object' };
    const entry = server as Record<string, unknown>;
    const type = typeof entry.type === 'string' ? entry.type.toLowerCase() : undefined;
    if ('command' in entry || (type !== undefined && COMMAND_TYPES.has(type))) {
      if (this.allowInlineMcp) return undefined;
      return {
        field,
        reason:
          "an inline MCP server that runs a command is refused: define it in the MCP config file (SWITCHBOARD_MCP_CONFIG) and name it in a library agent's mcp_servers, " +
          'or have the operator set SWITCHBOARD_ALLOW_INLINE_MCP=true (lets API callers run programs on this host)',
      };
    }
    if ((type !== undefined && REMOTE_TYPES.has(type)) || (type === undefined && 'url' in entry)) {
      if (typeof entry.url !== 'string') return { field: `${field}.url`, reason: 'a remote MCP server needs a url string' };
      const verdict = await check(entry.url);
      return verdict.allowed ? undefined : { field: `${field}.url`, reason: refusedUrl(verdict.reason) };
    }
    if (this.allowInlineMcp) return undefined;
    return { field: `${field}.type`, reason: `must be http or sse (a remote server with a url); got ${JSON.stringify(entry.type ?? null)}` };
  }
}

function originOf(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : url;
  } catch {
    return url;
  }
}

function refusedUrl(reason: string): string {
  return `the URL is refused by the outbound guard: ${reason}`;
}
