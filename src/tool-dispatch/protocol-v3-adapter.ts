import { resolverErrors } from '../child-sessions';
import type { CliSessionEvent, ToolResult } from '../copilot-cli';
import { fieldOf, nonEmptyString, type PermissionRequest, type ToolCallRequest } from './cli-request';
import type { PermissionDecision } from './permission-policy';

/**
 * Protocol 3 on the wire: `external_tool.requested` and `permission.requested` broadcasts on the
 * PARENT's `session.event` stream, a sub-agent's tagged with its task id in the envelope's `agentId`,
 * each answered by a request back naming the broadcast's `requestId` (shared/reference, v3 captures).
 * Pure: an event in, one request type out; an answer in, the request to send out.
 */

/** A request to send the CLI: the answer to a broadcast. */
export interface CliAnswer<P> {
  method: string;
  params: P;
}

/** Who asked: the id to resolve (the parent's, or the sub-agent's task id), or why nobody can be. */
export type Requester = { id: string } | { error: string };

/**
 * A sub-agent's request carries its task id on the envelope; without one it is the main agent's. An
 * agentId that is present but not a usable id is refused, never taken as the main agent (all tools).
 */
export function requesterOf({ sessionId: parentId, event }: CliSessionEvent): Requester {
  const agentId: unknown = event.agentId;
  if (agentId === undefined) return { id: parentId };
  if (typeof agentId !== 'string' || agentId.length === 0) return { error: resolverErrors.unknownSession(JSON.stringify(agentId)) };
  return { id: agentId };
}

/** The tool call of an `external_tool.requested`, or undefined when it has no requestId to answer under. */
export function toolCall({ event }: CliSessionEvent): (ToolCallRequest & { requestId: string }) | undefined {
  const data = event.data ?? {};
  const requestId = nonEmptyString(data.requestId);
  if (!requestId) return undefined;
  return {
    via: 'external_tool.requested',
    toolName: nonEmptyString(data.toolName) ?? '',
    toolCallId: nonEmptyString(data.toolCallId) ?? '',
    requestId,
    arguments: data.arguments,
  };
}

export interface PendingToolCallAnswer {
  sessionId: string;
  requestId: string;
  result?: ToolResult;
  error?: string;
}

/** The tool's result, or an error when the requester could not be resolved. */
export function toolCallAnswer(parentId: string, requestId: string, answer: { result: ToolResult } | { error: string }): CliAnswer<PendingToolCallAnswer> {
  return { method: 'session.tools.handlePendingToolCall', params: { sessionId: parentId, requestId, ...answer } };
}

/** The question of a `permission.requested`, or undefined when it has no requestId to answer under. */
export function permissionRequest({ event }: CliSessionEvent): (PermissionRequest & { requestId: string }) | undefined {
  const data = event.data ?? {};
  const requestId = nonEmptyString(data.requestId);
  if (!requestId) return undefined;
  const asSent = data.permissionRequest ?? {};
  return {
    via: 'permission.requested',
    requestId,
    question: {
      kind: nonEmptyString(fieldOf(asSent, 'kind')) ?? 'unknown',
      toolName: nonEmptyString(fieldOf(asSent, 'toolName')),
      path: nonEmptyString(fieldOf(asSent, 'path')),
    },
    toolCallId: nonEmptyString(fieldOf(asSent, 'toolCallId')),
    asSent,
  };
}

export interface PendingPermissionAnswer {
  sessionId: string;
  requestId: string;
  result: { kind: 'approve-once' } | { kind: 'reject'; feedback: string };
}

export function permissionAnswer(parentId: string, requestId: string, decision: PermissionDecision): CliAnswer<PendingPermissionAnswer> {
  return {
    method: 'session.permissions.handlePendingPermissionRequest',
    params: {
      sessionId: parentId,
      requestId,
      result: decision.approved ? { kind: 'approve-once' } : { kind: 'reject', feedback: decision.reason },
    },
  };
}
