import { SYSTEM_ACTOR, systemCallback } from '../common';
import { Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import type { ToolResult } from '../copilot-cli';
import { EventStore } from '../event-store';
import { type ForeignSessionEvent, foreignSessionAppend } from '../sessions';
import type { HookInvocation, PermissionRequest, ToolCallRequest } from './cli-request';
import type { HookLineage, HookVerdict } from './hook-dispatcher';
import type { PermissionDecision } from './permission-policy';
import { type RoutedRequestData, type RoutedRequestEvent, RoutedRequestEvents } from './routed-request.events';
import { type PendingUserInput, type UserInputAnswer, UserInputTimeoutError } from './user-input-broker';

/** Who asked: the parent session that owns the handlers, and the child and its agent when a sub-agent asked. */
export interface Requesters {
  parentSessionId: string;
  childSessionId?: string;
  agentName?: string;
  /** The agent the parent session runs (undefined: none). */
  sessionAgentId?: string;
}

/** Audit records are not awaited by anyone: they may wait this long to share a commit. */
const AUDIT_COMMIT_DELAY_MS = 5;

/** What is recorded of each routed request and its answer (pure: the router measures, this shapes). */
export const auditRecords = {
  toolCallRouted(who: Requesters, call: ToolCallRequest, result: ToolResult, latencyMs: number): RoutedRequestEvent {
    return attributed(who, RoutedRequestEvents.toolCallRouted, {
      via: call.via,
      requestId: call.requestId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      arguments: call.arguments,
      outcome: result.resultType,
      result: result.textResultForLlm,
      reason: result.resultType === 'success' ? undefined : result.error,
      latencyMs,
    });
  },

  /** Refused before any handler ran: outside the child's allowlist, or no such tool on the session. */
  toolCallDenied(who: Requesters, call: ToolCallRequest, result: ToolResult, registered: boolean, latencyMs: number): RoutedRequestEvent {
    return attributed(who, RoutedRequestEvents.toolCallDenied, {
      via: call.via,
      requestId: call.requestId,
      toolCallId: call.toolCallId,
      toolName: call.toolName,
      arguments: call.arguments,
      outcome: 'denied',
      result: result.textResultForLlm,
      reason: registered ? `not in the allowlist of agent ${who.agentName}` : 'not registered on the session',
      latencyMs,
    });
  },

  /** `toolName`: the question's, else the name the CLI gave the call (a built-in's permission names only its kind). */
  permissionDecided(who: Requesters, request: PermissionRequest, decision: PermissionDecision, latencyMs: number, toolName?: string): RoutedRequestEvent {
    const agentId = who.agentName ?? who.sessionAgentId;
    const record = attributed(who, RoutedRequestEvents.permissionDecided, {
      via: request.via,
      requestId: request.requestId,
      toolName: request.question.toolName ?? toolName,
      toolCallId: request.toolCallId,
      arguments: request.asSent,
      outcome: decision.approved ? 'approved' : 'denied',
      reason: decision.reason,
      latencyMs,
      decidedBy: decision.decidedBy ?? 'policy',
      ...(agentId ? { agentId } : {}),
    });
    return decision.decider ? { ...record, by: decision.decider } : record;
  },

  hookInvoked(who: Requesters, hook: HookInvocation, latencyMs: number): RoutedRequestEvent {
    return attributed(who, RoutedRequestEvents.hookInvoked, {
      via: 'hooks.invoke',
      ...(hook.requestId ? { requestId: hook.requestId } : {}),
      toolName: hook.toolName,
      arguments: { hookType: hook.hookType, input: hook.input },
      outcome: 'continued',
      latencyMs,
    });
  },

  /** What the session's hook webhooks answered: the output the CLI got, and each handler's part. */
  hookDecided(who: Requesters, hook: HookInvocation, verdict: HookVerdict, lineage: HookLineage | undefined, latencyMs: number): RoutedRequestEvent {
    return attributed(who, RoutedRequestEvents.hookInvoked, {
      via: 'hooks.invoke',
      ...(hook.requestId ? { requestId: hook.requestId } : {}),
      toolName: hook.toolName,
      arguments: { hookType: hook.hookType, input: hook.input, ...(lineage ? { lineage } : {}) },
      outcome: verdict.outcome,
      result: { output: verdict.stop === undefined ? verdict.output : null, handlers: verdict.handlers },
      reason: verdict.reason,
      latencyMs,
    });
  },

  /** The question as it waits for an answer (the API lists it by this requestId). */
  userInputRequested(who: Requesters, asked: PendingUserInput): RoutedRequestEvent {
    return {
      type: RoutedRequestEvents.userInputRequested,
      data: {
        via: 'userInput.request',
        parentSessionId: who.parentSessionId,
        childSessionId: who.childSessionId,
        agentName: who.agentName,
        requestId: asked.requestId,
        arguments: { question: asked.question, choices: asked.choices, allowFreeform: asked.allowFreeform },
        outcome: 'pending',
        latencyMs: 0,
      },
    };
  },

  /** The answer, or why none came (timed out, or cancelled with its session). */
  /** `requestId`: the id `user_input.requested` recorded, so a reader pairs the answer with its question. */
  userInputAnswered(
    who: Requesters,
    question: string,
    answer: UserInputAnswer | { error: unknown },
    latencyMs: number,
    requestId?: string,
  ): RoutedRequestEvent {
    const ids = requestId ? { requestId } : {};
    if ('error' in answer) {
      return attributed(who, RoutedRequestEvents.userInputAnswered, {
        via: 'userInput.request',
        ...ids,
        arguments: { question },
        outcome: answer.error instanceof UserInputTimeoutError ? 'timed_out' : 'cancelled',
        reason: (answer.error as Error).message,
        latencyMs,
      });
    }
    return attributed(who, RoutedRequestEvents.userInputAnswered, {
      via: 'userInput.request',
      ...ids,
      arguments: { question },
      outcome: 'answered',
      result: answer,
      latencyMs,
    });
  },
};

function attributed(
  who: Requesters,
  type: RoutedRequestEvent['type'],
  data: Omit<RoutedRequestData, 'parentSessionId' | 'childSessionId' | 'agentName'>,
): RoutedRequestEvent {
  return { type, data: { ...data, parentSessionId: who.parentSessionId, childSessionId: who.childSessionId, agentName: who.agentName } };
}

/** The event appended to the parent session's stream: a JSON copy of the record, attributed to the CLI. */
export function auditEvent(record: RoutedRequestEvent): ForeignSessionEvent {
  const sessionId = record.data.parentSessionId;
  // A decision's actor is who decided it (the console, the API, the timeout, the policy); the rest the CLI asked.
  const actor = record.type === RoutedRequestEvents.permissionDecided ? (record.data.decidedBy ?? 'policy') : 'copilot-cli';
  return { type: record.type, data: auditable(record.data), metadata: { actor, correlationId: sessionId, by: record.by ?? SYSTEM_ACTOR } };
}

/** A JSON copy of the audit record; arguments too deep or cyclic to serialise are recorded as such, not lost with the rest. */
export function auditable(data: RoutedRequestData): Record<string, unknown> {
  try {
    return JSON.parse(JSON.stringify(data)) as Record<string, unknown>;
  } catch (error) {
    const unserialisable = `[not serialisable: ${(error as Error).message}]`;
    return JSON.parse(
      JSON.stringify({ ...data, arguments: unserialisable, result: typeof data.result === 'string' ? data.result : unserialisable }),
    ) as Record<string, unknown>;
  }
}

/**
 * Appends audit records to the parent session's stream; nobody awaits them, a failure is logged.
 * The records a turn of the event loop makes (under load, one read of the CLI's socket carries many
 * calls) go to each session's stream as ONE append at the end of that turn: the store's work per
 * append (the stream's version row, the queued promise) is paid per session and turn, not per call.
 * They are handed over before the loop reads more of the CLI's input, so a record still precedes
 * what the CLI does after its answer. An append of several that fails is retried record by record,
 * so one record the store refuses does not take the others with it.
 */
@Injectable()
export class RequestAuditLog implements OnModuleDestroy {
  private readonly logger = new Logger(RequestAuditLog.name);
  /** Records of this turn, by parent session, in the order they were made. */
  private readonly waiting = new Map<string, RoutedRequestEvent[]>();
  private flushing?: NodeJS.Immediate;
  /** After module destroy: appended at once, before the store closes. */
  private closing = false;

  constructor(private readonly store: EventStore) {}

  record(record: RoutedRequestEvent): void {
    const sessionId = record.data.parentSessionId;
    if (this.closing) {
      this.append(sessionId, [record]);
      return;
    }
    const records = this.waiting.get(sessionId);
    if (records) records.push(record);
    else this.waiting.set(sessionId, [record]);
    this.flushing ??= setImmediate(systemCallback(() => this.flush()));
  }

  /** Hands what is waiting to the store (it queues them; the store commits them before it closes). */
  onModuleDestroy(): void {
    this.closing = true;
    this.flush();
  }

  private flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    for (const [sessionId, records] of this.waiting) this.append(sessionId, records);
    this.waiting.clear();
  }

  private append(sessionId: string, records: RoutedRequestEvent[]): void {
    this.store.appendMany([foreignSessionAppend(sessionId, records.map(auditEvent))], { maxDelayMs: AUDIT_COMMIT_DELAY_MS }).catch((error: unknown) => {
      if (records.length > 1) {
        for (const record of records) this.append(sessionId, [record]);
        return;
      }
      this.logger.error({ err: error, sessionId, type: records[0].type }, 'could not record routed request');
    });
  }
}
