import type { Actor } from '../common';
import { type DomainEvent, eventGuard, eventReader } from '../event-store';

/** Audit events of routed requests, appended to the parent session's stream. */
export const RoutedRequestEvents = {
  toolCallRouted: 'tool_call.routed',
  toolCallDenied: 'tool_call.denied',
  permissionDecided: 'permission.decided',
  hookInvoked: 'hook.invoked',
  userInputRequested: 'user_input.requested',
  userInputAnswered: 'user_input.answered',
} as const;

/** Common shape: who asked (parent, child, agent), what, the answer, and how long it took. */
export interface RoutedRequestData {
  /** tool.call / external_tool.requested / permission.request / permission.requested / hooks.invoke / userInput.request */
  via: string;
  parentSessionId: string;
  childSessionId?: string;
  agentName?: string;
  requestId?: string;
  toolCallId?: string;
  toolName?: string;
  arguments?: unknown;
  outcome: string;
  result?: unknown;
  reason?: string;
  latencyMs: number;
  /**
   * permission.decided only, added later (older records lack them and read as unknown): who decided
   * (`DecisionSource`: console, api, timeout, policy, session-grant, expired) and the agent that
   * asked (the sub-agent, else the session's own agent).
   */
  decidedBy?: string;
  agentId?: string;
}

/** What Switchboard reads of a `hook.invoked` event's `arguments` (the CLI's hooks.invoke params). */
export interface HookInvocationArguments {
  hookType?: string;
}

/** Every routed-request event has the common data shape. */
export type RoutedRequestEvent = DomainEvent<(typeof RoutedRequestEvents)[keyof typeof RoutedRequestEvents], RoutedRequestData> & {
  /** issue 27: who decided a permission (the event's `metadata.by`); the CLI's other requests are Switchboard's. */
  by?: Actor;
};

export const isRoutedRequestEvent = eventGuard<RoutedRequestEvent>(Object.values(RoutedRequestEvents));
/** A routed-request event as another context reads it: by its type, through these payload types. */
export const readRoutedRequestEvent = eventReader<RoutedRequestEvent>(Object.values(RoutedRequestEvents));
