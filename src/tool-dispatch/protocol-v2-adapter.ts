import { ErrorCodes, ResponseError } from 'vscode-jsonrpc/node';
import type { ToolResult } from '../copilot-cli';
import { fieldOf, type HookInvocation, nonEmptyString, type PermissionRequest, type ToolCallRequest, type UserInputRequest } from './cli-request';
import type { PermissionDecision } from './permission-policy';
import type { UserInputAnswer } from './user-input-broker';

/**
 * Protocol 2 on the wire: the CLI's JSON-RPC requests (`tool.call`, `permission.request`,
 * `hooks.invoke`, `userInput.request`), keyed by a session id that may be a child's, and their
 * answers. `hooks.invoke` stays a request in protocol 3 and is read here too. Pure: params in,
 * one request type out; an answer in, the wire result (or the JSON-RPC error to throw) out.
 * The connection has already refused params that are not an object.
 */
type Params = Record<string, unknown>;

/** The session id a request is keyed by; refused with InvalidParams unless it is a non-empty string. */
export function sessionIdOf(params: Params): string {
  const sessionId = nonEmptyString(params.sessionId);
  if (sessionId === undefined) throw new ResponseError(ErrorCodes.InvalidParams, 'sessionId must be a non-empty string');
  return sessionId;
}

/** A session id that did not resolve (spec: `unknown session <id>`, `parent session <p> for child <c> not found`). */
export function unresolved(error: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, error);
}

export function toolCall(params: Params): ToolCallRequest {
  return {
    via: 'tool.call',
    toolName: nonEmptyString(params.toolName) ?? '',
    toolCallId: nonEmptyString(params.toolCallId) ?? '',
    arguments: params.arguments,
  };
}

export function toolCallAnswer(result: ToolResult): { result: ToolResult } {
  return { result };
}

export function permissionRequest(params: Params): PermissionRequest {
  const asSent = params.permissionRequest ?? {};
  const toolName = nonEmptyString(fieldOf(asSent, 'toolName'));
  return {
    via: 'permission.request',
    question: { kind: nonEmptyString(fieldOf(asSent, 'kind')) ?? 'unknown', toolName, path: nonEmptyString(fieldOf(asSent, 'path')) },
    toolCallId: nonEmptyString(fieldOf(asSent, 'toolCallId')),
    asSent,
  };
}

export function permissionAnswer(decision: PermissionDecision): { result: { kind: 'approved' | 'denied-by-rules' } } {
  return { result: { kind: decision.approved ? 'approved' : 'denied-by-rules' } };
}

export function hookInvocation(params: Params): HookInvocation {
  const input = params.input ?? {};
  return {
    hookType: params.hookType,
    input,
    toolName: nonEmptyString(fieldOf(input, 'toolName')),
    agentId: nonEmptyString(fieldOf(input, 'agentId')),
  };
}

/** No handler: `{}` (the CLI continues); else the hooks' output, as the SDK answers (`{ output }`). */
export function hookAnswer(output?: Record<string, unknown>): { output?: Record<string, unknown> } {
  return output === undefined ? {} : { output };
}

/** A hook that failed closed and has nothing to deny: the CLI gets an error naming why. */
export function hookStopped(reason: string): ResponseError<undefined> {
  return new ResponseError(ErrorCodes.InternalError, reason);
}

export function userInputRequest(params: Params): UserInputRequest {
  return {
    question: nonEmptyString(params.question) ?? '',
    choices: Array.isArray(params.choices) ? params.choices.map(String) : [],
    allowFreeform: params.allowFreeform !== false,
  };
}

export function userInputAnswer(answer: UserInputAnswer): UserInputAnswer {
  return answer;
}

/** No answer came (timeout, session gone): the CLI gets an InternalError with the reason. */
export function userInputFailure(error: unknown): ResponseError<void> {
  return new ResponseError(ErrorCodes.InternalError, (error as Error).message);
}
