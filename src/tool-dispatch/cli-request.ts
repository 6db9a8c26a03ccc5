import type { PermissionQuestion } from './permission-policy';

/**
 * What the CLI asks of the client, as the router handles it whatever the protocol: the adapters
 * (`protocol-v2-adapter.ts`, `protocol-v3-adapter.ts`) translate the wire shapes to these and back.
 */

/** A tool call: a `tool.call` request (protocol 2) or an `external_tool.requested` broadcast (protocol 3). */
export interface ToolCallRequest {
  via: 'tool.call' | 'external_tool.requested';
  toolName: string;
  toolCallId: string;
  /** Protocol 3: the id the answer is sent back under. */
  requestId?: string;
  arguments: unknown;
}

/** A permission question: a `permission.request` request (2) or a `permission.requested` broadcast (3). */
export interface PermissionRequest {
  via: 'permission.request' | 'permission.requested';
  requestId?: string;
  question: PermissionQuestion;
  toolCallId?: string;
  /** The CLI's `permissionRequest` as it came, for the audit. */
  asSent: unknown;
}

/** A `hooks.invoke` request (a request in both protocols). */
export interface HookInvocation {
  hookType: unknown;
  /** The hook's input as it came, for the audit. */
  input: unknown;
  toolName?: string;
  /** Protocol 3 keys the request by the parent; a child's hook names the child here. */
  agentId?: string;
  /** issue 28: Switchboard's id for the call (the CLI sends none), recorded on hook.invoked: its span's key. */
  requestId?: string;
}

/** A `userInput.request`: a question for the user. */
export interface UserInputRequest {
  question: string;
  choices: string[];
  allowFreeform: boolean;
}

/** A non-empty string, or undefined for anything else the CLI may send. */
export const nonEmptyString = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);

/** A property of a value of any JSON type: undefined unless the value is an object that has it. */
export const fieldOf = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
