import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { performance } from 'node:perf_hooks';
import { Subscription } from 'rxjs';
import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import { ChildSessionRouting } from '../child-sessions/child-session-routing';
import { resolverErrors } from '../child-sessions/child-session-resolver';
import type { CliSessionEvent, ToolResult } from '../copilot-cli/cli-protocol';
import { CopilotCliConnection } from '../copilot-cli/copilot-cli-connection';
import { EventStore } from '../event-store/event-store';
import { sessionStreamId } from '../event-store/stream-ids';
import type { LiveSession } from '../sessions/live-session';
import { SessionRegistry } from '../sessions/session-registry';
import { decidePermission, type PermissionDecision } from './permission-policy';
import { RoutedRequestEvents, type RoutedRequestData } from './routed-request.events';
import { ToolInvoker } from './tool-invoker';
import { UserInputBroker, UserInputTimeoutError } from './user-input-broker';

/** A resolved request: the parent session that owns the handlers, and the child when a sub-agent asked. */
interface Routed {
  session: LiveSession;
  childSessionId?: string;
  agentName?: string;
}

/** Audit records are not awaited by anyone: they may wait this long to share a commit. */
const AUDIT_COMMIT_DELAY_MS = 5;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** spec's failure result for a tool a child may not call, or one that is not registered. */
export function unsupportedToolResult(toolName: string): ToolResult {
  return {
    textResultForLlm: resolverErrors.toolNotSupported(toolName),
    resultType: 'failure',
    error: `tool '${toolName}' not supported`,
  };
}

/**
 * spec: subagent-tool-dispatch, Handler Dispatch. Every request of the CLI, the four protocol-2
 * requests and protocol 3's `external_tool.requested` / `permission.requested` broadcasts, goes
 * through one resolveSession; the allowlist applies to tool calls only. Resolution is synchronous;
 * handlers (webhooks, user answers) are awaited after it, holding nothing.
 */
@Injectable()
export class RequestRouter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RequestRouter.name);
  private subscription?: Subscription;

  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly routing: ChildSessionRouting,
    private readonly registry: SessionRegistry,
    private readonly tools: ToolInvoker,
    private readonly userInput: UserInputBroker,
    private readonly store: EventStore,
  ) {}

  onApplicationBootstrap(): void {
    this.cli.handleRequests('tool.call', (p) => this.onToolCall(p));
    this.cli.handleRequests('permission.request', (p) => this.onPermissionRequest(p));
    this.cli.handleRequests('hooks.invoke', (p) => this.onHooksInvoke(p));
    this.cli.handleRequests('userInput.request', (p) => this.onUserInputRequest(p));
    this.subscription = this.cli.events$.subscribe((event) => {
      if (event.event.type === 'external_tool.requested') void this.onExternalToolRequested(event);
      else if (event.event.type === 'permission.requested') void this.onPermissionRequested(event);
    });
    this.subscription.add(this.registry.removed$.subscribe((sessionId) => this.userInput.cancelFor(sessionId)));
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  // ---- protocol 2: JSON-RPC requests keyed by a session id that may be a child's ----

  private async onToolCall(params: Record<string, unknown>): Promise<{ result: ToolResult }> {
    const started = performance.now();
    const routed = this.resolveOrThrow(params.sessionId);
    const toolName = str(params.toolName) ?? '';
    const toolCallId = str(params.toolCallId) ?? '';
    const result = await this.runTool(routed, { via: 'tool.call', toolName, toolCallId, args: params.arguments, started });
    return { result };
  }

  private async onPermissionRequest(params: Record<string, unknown>): Promise<{ result: { kind: string } }> {
    const started = performance.now();
    const routed = this.resolveOrThrow(params.sessionId);
    const request = (params.permissionRequest ?? {}) as Record<string, unknown>;
    const decision = this.decide(routed, request);
    this.audit(routed, RoutedRequestEvents.permissionDecided, {
      via: 'permission.request',
      toolName: str(request.toolName),
      toolCallId: str(request.toolCallId),
      arguments: request,
      outcome: decision.approved ? 'approved' : 'denied',
      reason: decision.reason,
      latencyMs: performance.now() - started,
    });
    return { result: { kind: decision.approved ? 'approved' : 'denied-by-rules' } };
  }

  private async onHooksInvoke(params: Record<string, unknown>): Promise<Record<string, never>> {
    const started = performance.now();
    const routed = this.resolveOrThrow(params.sessionId);
    const input = (params.input ?? {}) as Record<string, unknown>;
    // Protocol 3 sends the parent id at top level; a child's hook names the child inside input.
    const childId = routed.childSessionId ?? (str(input.agentId) && input.agentId !== routed.session.sessionId ? str(input.agentId) : undefined);
    this.audit(
      { ...routed, childSessionId: childId, agentName: routed.agentName ?? (childId ? this.routing.agentOf(childId) : undefined) },
      RoutedRequestEvents.hookInvoked,
      {
        via: 'hooks.invoke',
        toolName: str(input.toolName),
        arguments: { hookType: params.hookType, input },
        outcome: 'continued',
        latencyMs: performance.now() - started,
      },
    );
    return {};
  }

  private async onUserInputRequest(params: Record<string, unknown>): Promise<{ answer: string; wasFreeform: boolean }> {
    const started = performance.now();
    const routed = this.resolveOrThrow(params.sessionId);
    const question = str(params.question) ?? '';
    try {
      const answer = await this.userInput.ask(
        {
          sessionId: routed.session.sessionId,
          childSessionId: routed.childSessionId,
          agentName: routed.agentName,
          question,
          choices: Array.isArray(params.choices) ? params.choices.map(String) : [],
          allowFreeform: params.allowFreeform !== false,
        },
        (asked) =>
          this.append(routed.session.sessionId, RoutedRequestEvents.userInputRequested, {
            via: 'userInput.request',
            parentSessionId: routed.session.sessionId,
            childSessionId: routed.childSessionId,
            agentName: routed.agentName,
            requestId: asked.requestId,
            arguments: { question, choices: asked.choices, allowFreeform: asked.allowFreeform },
            outcome: 'pending',
            latencyMs: 0,
          }),
      );
      this.audit(routed, RoutedRequestEvents.userInputAnswered, {
        via: 'userInput.request',
        arguments: { question },
        outcome: 'answered',
        result: answer,
        latencyMs: performance.now() - started,
      });
      return answer;
    } catch (error) {
      const outcome = error instanceof UserInputTimeoutError ? 'timed_out' : 'cancelled';
      this.audit(routed, RoutedRequestEvents.userInputAnswered, {
        via: 'userInput.request',
        arguments: { question },
        outcome,
        reason: (error as Error).message,
        latencyMs: performance.now() - started,
      });
      throw new ResponseError(ErrorCodes.InternalError, (error as Error).message);
    }
  }

  // ---- protocol 3: broadcasts on the parent's stream, answered by a request back ----

  private async onExternalToolRequested({ sessionId: parentId, event }: CliSessionEvent): Promise<void> {
    const started = performance.now();
    const data = event.data ?? {};
    const requestId = str(data.requestId);
    if (!requestId) {
      this.logger.warn({ parentId }, 'external_tool.requested without requestId dropped');
      return;
    }
    const toolName = str(data.toolName) ?? '';
    const answer = (body: { result: ToolResult } | { error: string }) =>
      this.cli
        .request('session.tools.handlePendingToolCall', { sessionId: parentId, requestId, ...body })
        .catch((error: unknown) => this.logger.warn({ err: error, requestId }, 'handlePendingToolCall failed'));
    const resolution = this.resolveBroadcast(parentId, event.agentId);
    if ('error' in resolution) {
      await answer({ error: resolution.error });
      return;
    }
    const result = await this.runTool(resolution, {
      via: 'external_tool.requested',
      toolName,
      toolCallId: str(data.toolCallId) ?? '',
      requestId,
      args: data.arguments,
      started,
    });
    await answer({ result });
  }

  private async onPermissionRequested({ sessionId: parentId, event }: CliSessionEvent): Promise<void> {
    const started = performance.now();
    const data = event.data ?? {};
    const requestId = str(data.requestId);
    if (!requestId) return;
    const request = (data.permissionRequest ?? {}) as Record<string, unknown>;
    const resolution = this.resolveBroadcast(parentId, event.agentId);
    const decision: PermissionDecision = 'error' in resolution ? { approved: false, reason: resolution.error } : this.decide(resolution, request);
    if (!('error' in resolution)) {
      this.audit(resolution, RoutedRequestEvents.permissionDecided, {
        via: 'permission.requested',
        requestId,
        toolName: str(request.toolName),
        toolCallId: str(request.toolCallId),
        arguments: request,
        outcome: decision.approved ? 'approved' : 'denied',
        reason: decision.reason,
        latencyMs: performance.now() - started,
      });
    }
    await this.cli
      .request('session.permissions.handlePendingPermissionRequest', {
        sessionId: parentId,
        requestId,
        result: decision.approved ? { kind: 'approve-once' } : { kind: 'reject', feedback: decision.reason },
      })
      .catch((error: unknown) => this.logger.warn({ err: error, requestId }, 'handlePendingPermissionRequest failed'));
  }

  // ---- shared ----

  /**
   * Protocol 3: a sub-agent's request carries its task id on the envelope; without one it is the main
   * agent's. An agentId that is present but not a usable id is refused, never taken as the main agent.
   */
  private resolveBroadcast(parentId: string, agentId: unknown): Routed | { error: string } {
    if (agentId === undefined) return this.resolve(parentId);
    if (typeof agentId !== 'string' || agentId.length === 0) return { error: resolverErrors.unknownSession(JSON.stringify(agentId)) };
    return this.resolve(agentId);
  }

  /** The one resolveSession of every request kind. */
  private resolve(id: string): Routed | { error: string } {
    const resolution = this.routing.resolve(id);
    if (!resolution.ok) return { error: resolution.error };
    if (!resolution.isChild) return { session: resolution.session };
    return { session: resolution.session, childSessionId: id, agentName: this.routing.agentOf(id) };
  }

  private resolveOrThrow(sessionId: unknown): Routed {
    if (typeof sessionId !== 'string' || sessionId.length === 0) {
      throw new ResponseError(ErrorCodes.InvalidParams, 'sessionId must be a non-empty string');
    }
    const resolution = this.resolve(sessionId);
    if ('error' in resolution) throw new ResponseError(ErrorCodes.InvalidParams, resolution.error);
    return resolution;
  }

  private async runTool(
    routed: Routed,
    call: { via: string; toolName: string; toolCallId: string; requestId?: string; args: unknown; started: number },
  ): Promise<ToolResult> {
    const { session, childSessionId, agentName } = routed;
    const tool = session.tool(call.toolName);
    const allowed = tool !== undefined && (!childSessionId || this.routing.isToolAllowedForChild(childSessionId, call.toolName));
    if (!allowed) {
      const result = unsupportedToolResult(call.toolName);
      this.audit(routed, RoutedRequestEvents.toolCallDenied, {
        via: call.via,
        requestId: call.requestId,
        toolCallId: call.toolCallId,
        toolName: call.toolName,
        arguments: call.args,
        outcome: 'denied',
        result: result.textResultForLlm,
        reason: tool ? `not in the allowlist of agent ${agentName}` : 'not registered on the session',
        latencyMs: performance.now() - call.started,
      });
      return result;
    }
    const result = await this.tools.invoke(tool, {
      sessionId: session.sessionId,
      childSessionId,
      agentName,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      arguments: call.args,
    });
    this.audit(routed, RoutedRequestEvents.toolCallRouted, {
      via: call.via,
      requestId: call.requestId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      arguments: call.args,
      outcome: result.resultType,
      result: result.textResultForLlm,
      reason: result.resultType === 'success' ? undefined : result.error,
      latencyMs: performance.now() - call.started,
    });
    return result;
  }

  private decide(routed: Routed, request: Record<string, unknown>): PermissionDecision {
    return decidePermission({ kind: str(request.kind) ?? 'unknown', toolName: str(request.toolName) }, routed.session);
  }

  private audit(routed: Routed, type: string, data: Omit<RoutedRequestData, 'parentSessionId' | 'childSessionId' | 'agentName'>): void {
    this.append(routed.session.sessionId, type, {
      ...data,
      parentSessionId: routed.session.sessionId,
      childSessionId: routed.childSessionId,
      agentName: routed.agentName,
    });
  }

  private append(sessionId: string, type: string, data: RoutedRequestData): void {
    this.store
      .append(sessionStreamId(sessionId), 'any', [{ type, data: auditable(data), metadata: { actor: 'copilot-cli', correlationId: sessionId } }], {
        maxDelayMs: AUDIT_COMMIT_DELAY_MS,
      })
      .catch((error: unknown) => this.logger.error({ err: error, sessionId, type }, 'could not record routed request'));
  }
}

/** A JSON copy of the audit record; arguments too deep or cyclic to serialise are recorded as such, not lost with the rest. */
function auditable(data: RoutedRequestData): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  } catch (error) {
    const unserialisable = `[not serialisable: ${(error as Error).message}]`;
    return JSON.parse(
      JSON.stringify({ ...data, arguments: unserialisable, result: typeof data.result === 'string' ? data.result : unserialisable }),
    ) as Record<string, unknown>;
  }
}
