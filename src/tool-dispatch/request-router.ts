import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { Subscription } from 'rxjs';
import { ChildSessionRouting, resolverErrors } from '../child-sessions';
import { type CliSessionEvent, type ToolResult, CopilotCliConnection } from '../copilot-cli';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { type LiveSession, SessionRegistry } from '../sessions';
import type { PermissionRequest, ToolCallRequest } from './cli-request';
import { ApprovalBroker } from '../approvals';
import { type HostAccess, mustAsk, type PermissionDecision, permissionVerdict } from './permission-policy';
import * as v2 from './protocol-v2-adapter';
import * as v3 from './protocol-v3-adapter';
import { auditRecords, RequestAuditLog, type Requesters } from './request-audit';
import { HookDispatcher, type HookLineage, isHookType } from './hook-dispatcher';
import { LineageLookup } from '../run-lineage';
import { PauseHolds } from '../pauses';
import { CallToolNames } from './call-tool-names';
import { fieldOf, nonEmptyString } from './cli-request';
import { ToolInvoker } from './tool-invoker';
import { hookTraceparent, toolCallTraceparent } from './outbound-trace';
import { replayPermission } from './replay-permissions';
import { ReplayedToolResults } from './replayed-tool-results';
import { UserInputBroker } from './user-input-broker';

/** A resolved request: the parent session that owns the handlers, and the child when a sub-agent asked. */
interface Routed {
  session: LiveSession;
  childSessionId?: string;
  agentName?: string;
}

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
 * through one resolveSession; the allowlist applies to tool calls only. Resolution holds nothing (an id
 * the maps know resolves at once, an unknown one waits for one read-model read); handlers (webhooks,
 * user answers) are awaited after it, holding nothing. The wire shapes are the
 * adapters' (`protocol-v2-adapter`, `protocol-v3-adapter`); what is recorded is `request-audit`'s.
 */
@Injectable()
export class RequestRouter implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RequestRouter.name);
  private subscription?: Subscription;
  /** Every session (a sub-agent's and a run's included) works in the one working directory. */
  private readonly host: HostAccess;
  private readonly callToolNames = new CallToolNames();

  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly routing: ChildSessionRouting,
    private readonly registry: SessionRegistry,
    private readonly tools: ToolInvoker,
    private readonly userInput: UserInputBroker,
    private readonly audit: RequestAuditLog,
    private readonly hooks: HookDispatcher,
    private readonly lineages: LineageLookup,
    private readonly approvals: ApprovalBroker,
    private readonly replayed: ReplayedToolResults,
    @Inject(SWITCHBOARD_CONFIG) config: SwitchboardConfig,
    private readonly pauses: PauseHolds,
  ) {
    this.host = { workingDirectory: config.cli.workingDirectory, hostPermissions: config.security.allowHostPermissions };
  }

  onApplicationBootstrap(): void {
    this.cli.handleRequests('tool.call', (p) => this.onToolCall(p));
    this.cli.handleRequests('permission.request', (p) => this.onPermissionRequest(p));
    this.cli.handleRequests('hooks.invoke', (p) => this.onHooksInvoke(p));
    this.cli.handleRequests('userInput.request', (p) => this.onUserInputRequest(p));
    this.subscription = this.cli.events$.subscribe((event) => {
      if (event.event.type === 'tool.execution_start') {
        this.callToolNames.remember(nonEmptyString(fieldOf(event.event.data, 'toolCallId')), nonEmptyString(fieldOf(event.event.data, 'toolName')));
      } else if (event.event.type === 'external_tool.requested') void this.onExternalToolRequested(event);
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
    const routed = await this.resolveOrThrow(params);
    return v2.toolCallAnswer(await this.runTool(routed, v2.toolCall(params), started));
  }

  private async onPermissionRequest(params: Record<string, unknown>): Promise<{ result: { kind: string } }> {
    const started = performance.now();
    const routed = await this.resolveOrThrow(params);
    const request = v2.permissionRequest(params);
    // An asked request holds this JSON-RPC request open until a person decides (issue 14).
    const decision = await this.decide(routed, request);
    this.audit.record(auditRecords.permissionDecided(requesters(routed), request, decision, performance.now() - started, this.toolNameOf(request)));
    return v2.permissionAnswer(decision);
  }

  /**
   * The session's hook webhooks decide (a child's hook goes to its parent's handlers); without a
   * handler for the type the hook is only recorded. A closed failure of a hook with nothing to deny
   * answers the CLI with an error.
   */
  private async onHooksInvoke(params: Record<string, unknown>): Promise<{ output?: Record<string, unknown> }> {
    const started = performance.now();
    const routed = await this.resolveOrThrow(params);
    // issue 28: the CLI's hooks.invoke carries no id; this one is recorded on hook.invoked and names its span.
    const hook = { ...v2.hookInvocation(params), requestId: randomUUID() };
    // Protocol 3 sends the parent id at top level; a child's hook names the child inside input.
    const childId = routed.childSessionId ?? (hook.agentId !== undefined && hook.agentId !== routed.session.sessionId ? hook.agentId : undefined);
    const agentName = routed.agentName ?? (childId ? this.routing.agentOf(childId) : undefined);
    const who = requesters({ ...routed, childSessionId: childId, agentName });
    const handlers = isHookType(hook.hookType) ? (routed.session.config.hooks ?? []).filter((h) => h.type === hook.hookType) : [];
    if (!isHookType(hook.hookType) || handlers.length === 0) {
      this.audit.record(auditRecords.hookInvoked(who, hook, performance.now() - started));
      return v2.hookAnswer();
    }
    const place = await this.lineages.placeOfSession(routed.session.sessionId);
    const lineage: HookLineage | undefined = place && {
      runId: place.runId,
      agentId: place.agentId,
      rootRunId: place.rootRunId,
      parentRunId: place.parentRunId,
      path: place.path,
    };
    const verdict = await this.hooks.invoke(handlers, hook.hookType, hook.input, {
      sessionId: routed.session.sessionId,
      childSessionId: childId,
      agentName,
      lineage,
      traceparent: hookTraceparent(routed.session, hook.requestId),
    });
    this.audit.record(auditRecords.hookDecided(who, hook, verdict, lineage, performance.now() - started));
    if (verdict.stop !== undefined) throw v2.hookStopped(verdict.stop);
    return v2.hookAnswer(verdict.output);
  }

  private async onUserInputRequest(params: Record<string, unknown>): Promise<{ answer: string; wasFreeform: boolean }> {
    const started = performance.now();
    const routed = await this.resolveOrThrow(params);
    const who = requesters(routed);
    const { question, choices, allowFreeform } = v2.userInputRequest(params);
    let requestId: string | undefined;
    try {
      const { by, ...answer } = await this.userInput.ask(
        { sessionId: routed.session.sessionId, childSessionId: routed.childSessionId, agentName: routed.agentName, question, choices, allowFreeform },
        (asked) => {
          requestId = asked.requestId;
          this.audit.record(auditRecords.userInputRequested(who, asked));
        },
      );
      this.audit.record({ ...auditRecords.userInputAnswered(who, question, answer, performance.now() - started, requestId), by });
      return v2.userInputAnswer(answer);
    } catch (error) {
      this.audit.record(auditRecords.userInputAnswered(who, question, { error }, performance.now() - started, requestId));
      throw v2.userInputFailure(error);
    }
  }

  // ---- protocol 3: broadcasts on the parent's stream, answered by a request back ----

  private async onExternalToolRequested(event: CliSessionEvent): Promise<void> {
    const started = performance.now();
    const parentId = event.sessionId;
    const call = v3.toolCall(event);
    if (!call) {
      this.logger.warn({ parentId }, 'external_tool.requested without requestId dropped');
      return;
    }
    const answer = (body: { result: ToolResult } | { error: string }) => {
      const { method, params } = v3.toolCallAnswer(parentId, call.requestId, body);
      return this.cli
        .request(method, params)
        .catch((error: unknown) => this.logger.warn({ err: error, requestId: call.requestId }, 'handlePendingToolCall failed'));
    };
    const resolution = await this.resolveRequester(v3.requesterOf(event));
    if ('error' in resolution) {
      await answer({ error: resolution.error });
      return;
    }
    await answer({ result: await this.runTool(resolution, call, started) });
  }

  private async onPermissionRequested(event: CliSessionEvent): Promise<void> {
    const started = performance.now();
    const request = v3.permissionRequest(event);
    if (!request) return;
    const resolution = await this.resolveRequester(v3.requesterOf(event));
    // An asked request is answered later, with the same answer call, once a person decides (issue 14).
    const decision: PermissionDecision = 'error' in resolution ? { approved: false, reason: resolution.error } : await this.decide(resolution, request);
    if (!('error' in resolution)) {
      this.audit.record(auditRecords.permissionDecided(requesters(resolution), request, decision, performance.now() - started, this.toolNameOf(request)));
    }
    const { method, params } = v3.permissionAnswer(event.sessionId, request.requestId, decision);
    await this.cli
      .request(method, params)
      .catch((error: unknown) => this.logger.warn({ err: error, requestId: request.requestId }, 'handlePendingPermissionRequest failed'));
  }

  // ---- shared ----

  private async resolveRequester(requester: v3.Requester): Promise<Routed | { error: string }> {
    return 'error' in requester ? requester : this.resolve(requester.id);
  }

  /** The one resolveSession of every request kind. */
  private async resolve(id: string): Promise<Routed | { error: string }> {
    const resolution = await this.routing.resolve(id);
    if (!resolution.ok) return { error: resolution.error };
    // issue 26: every request kind of a paused session (or subtree) waits here before its handler runs.
    if (!(await this.pauses.waitWhilePaused(resolution.session.sessionId))) return { error: 'its run or session ended while it was paused' };
    if (!resolution.isChild) return { session: resolution.session };
    return { session: resolution.session, childSessionId: id, agentName: this.routing.agentOf(id) };
  }

  private async resolveOrThrow(params: Record<string, unknown>): Promise<Routed> {
    const resolution = await this.resolve(v2.sessionIdOf(params));
    if ('error' in resolution) throw v2.unresolved(resolution.error);
    return resolution;
  }

  private async runTool(routed: Routed, call: ToolCallRequest, started: number): Promise<ToolResult> {
    const { session, childSessionId, agentName } = routed;
    const tool = session.tool(call.toolName);
    const allowed = tool !== undefined && (!childSessionId || this.routing.isToolAllowedForChild(childSessionId, call.toolName));
    if (!allowed) {
      const result = unsupportedToolResult(call.toolName);
      this.audit.record(auditRecords.toolCallDenied(requesters(routed), call, result, tool !== undefined, performance.now() - started));
      return result;
    }
    // issue 26: a replay's webhook tool is answered from the original's record; Switchboard's builtins (delegation) run.
    if (session.config.replay && tool.handler.type === 'webhook') {
      const replayed = await this.replayed.answer(session, agentName, call.toolName, call.arguments);
      if (replayed.kind !== 'live') {
        this.audit.record(auditRecords.toolCallRouted(requesters(routed), call, replayed.result, performance.now() - started));
        return replayed.result;
      }
    }
    const result = await this.tools.invoke(tool, {
      sessionId: session.sessionId,
      childSessionId,
      agentName,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      arguments: call.arguments,
      traceparent: toolCallTraceparent(session, call.toolCallId),
    });
    this.audit.record(auditRecords.toolCallRouted(requesters(routed), call, result, performance.now() - started));
    return result;
  }

  /** The policy's verdict; a request it must ask about waits for a person, the timeout, or the session's end. */
  private async decide(routed: Routed, request: PermissionRequest): Promise<PermissionDecision> {
    const sessionId = routed.session.sessionId;
    // issue 26: a replay runs unattended and does not repeat side effects unless told to.
    if (routed.session.config.replay) return replayPermission(request.question, routed.session, this.host);
    const verdict = await permissionVerdict(request.question, routed.session, (q) => this.approvals.grantFor(sessionId, q), this.host);
    if (!mustAsk(verdict)) return verdict;
    try {
      return await this.approvals.ask({
        sessionId,
        childSessionId: routed.childSessionId,
        agentName: routed.agentName,
        kind: request.question.kind,
        toolName: this.toolNameOf(request),
        arguments: request.asSent,
        via: request.via,
        requestId: request.requestId,
      });
    } catch (error) {
      this.logger.error({ err: error, sessionId }, 'could not hold the permission request for approval; denied');
      return { approved: false, reason: 'the request could not be recorded for approval', decidedBy: 'switchboard' };
    }
  }

  /** The tool a permission is for: the question's name, else the call's (a built-in's question names only its kind). */
  private toolNameOf(request: PermissionRequest): string | undefined {
    return request.question.toolName ?? this.callToolNames.nameOf(request.toolCallId);
  }
}

function requesters(routed: Routed): Requesters {
  return {
    parentSessionId: routed.session.sessionId,
    childSessionId: routed.childSessionId,
    agentName: routed.agentName,
    sessionAgentId: routed.session.config.agentId,
  };
}
