import { Injectable, Logger } from '@nestjs/common';
import type { CliSessionEvent } from '../copilot-cli';
import { fieldsOf } from '../event-store';
import { Workspaces } from '../workspaces';

/** What the CLI's tool events carry that a checkpoint names. */
interface ToolEventFields {
  toolCallId?: string;
  toolName?: string;
  /** `subagent.started`: the custom agent the CLI launched. */
  agentName?: string;
  /** `assistant.message`: the answer's id (`chatcmpl-…`, the ledger's `responseId`) and the tool calls it asked for. */
  apiCallId?: string;
  toolRequests?: unknown;
}

/** What is known of a tool call between the answer that asked for it and its end. */
interface ToolCallFacts {
  toolName?: string;
  agentName?: string;
  modelResponseId?: string;
}

/** One session's calls in flight and the CLI sub-agents it launched, by their task ids. */
interface SessionTracking {
  calls: Map<string, ToolCallFacts>;
  subAgents: Map<string, string>;
}

/**
 * issue 42: a session with a workspace gets a checkpoint (a commit on its branch, `workspace.checkpointed`)
 * after each tool call that changed files, and at the end of each turn for what no tool call explains (a
 * process a `bash` left running). The CLI's events say when and who: `assistant.message` names the model
 * answer that asked for each call, `subagent.started` the CLI sub-agent behind a task id, `tool.execution_start`
 * the tool, `tool.execution_complete` the end. A checkpoint never holds the event's recording or the turn.
 */
@Injectable()
export class WorkspaceCheckpoints {
  private readonly logger = new Logger(WorkspaceCheckpoints.name);
  private readonly sessions = new Map<string, SessionTracking>();

  constructor(private readonly workspaces: Workspaces) {}

  /** `sessionAgent`: the session's (or run's) agent id, as the ledger names it (`main` without one). */
  noteCliEvent(sessionId: string, event: CliSessionEvent['event'], sessionAgent: string): void {
    const data = fieldsOf<ToolEventFields>(event.data);
    const toolCallId = typeof data.toolCallId === 'string' ? data.toolCallId : undefined;
    const tracking = this.trackingOf(sessionId);
    switch (event.type) {
      case 'assistant.message': {
        if (typeof data.apiCallId !== 'string' || !Array.isArray(data.toolRequests)) return;
        for (const request of data.toolRequests as unknown[]) {
          const asked = fieldsOf<{ toolCallId?: unknown }>(request).toolCallId;
          if (typeof asked === 'string') this.facts(tracking, asked).modelResponseId = data.apiCallId;
        }
        return;
      }
      case 'subagent.started':
        if (typeof event.agentId === 'string' && typeof data.agentName === 'string') tracking.subAgents.set(event.agentId, data.agentName);
        return;
      case 'subagent.completed':
      case 'subagent.failed':
        if (typeof event.agentId === 'string') tracking.subAgents.delete(event.agentId);
        return;
      case 'tool.execution_start': {
        if (!toolCallId) return;
        const facts = this.facts(tracking, toolCallId);
        if (typeof data.toolName === 'string') facts.toolName = data.toolName;
        facts.agentName = (typeof event.agentId === 'string' ? tracking.subAgents.get(event.agentId) : undefined) ?? sessionAgent;
        return;
      }
      case 'tool.execution_complete': {
        const facts = toolCallId ? tracking.calls.get(toolCallId) : undefined;
        if (toolCallId) tracking.calls.delete(toolCallId);
        this.take(sessionId, { cause: 'tool', ...(toolCallId ? { toolCallId } : {}), agentName: sessionAgent, ...definedOf(facts) });
        return;
      }
      case 'session.idle':
        this.take(sessionId, { cause: 'turn-end', agentName: sessionAgent });
        return;
    }
  }

  /** The session ended here (destroyed, or its CLI gone): what was kept of its calls in flight goes. */
  forget(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  private trackingOf(sessionId: string): SessionTracking {
    let tracking = this.sessions.get(sessionId);
    if (!tracking) {
      tracking = { calls: new Map(), subAgents: new Map() };
      this.sessions.set(sessionId, tracking);
    }
    return tracking;
  }

  private facts(tracking: SessionTracking, toolCallId: string): ToolCallFacts {
    let facts = tracking.calls.get(toolCallId);
    if (!facts) {
      facts = {};
      tracking.calls.set(toolCallId, facts);
    }
    return facts;
  }

  private take(sessionId: string, cause: Parameters<Workspaces['checkpoint']>[1]): void {
    this.workspaces
      .checkpoint(sessionId, cause)
      .catch((error: unknown) => this.logger.warn({ sessionId, err: error }, 'could not checkpoint the session’s workspace'));
  }
}

/** The facts that are set: a checkpoint's event carries no `undefined` fields. */
function definedOf(facts: ToolCallFacts | undefined): ToolCallFacts {
  return Object.fromEntries(Object.entries(facts ?? {}).filter(([, value]) => value !== undefined));
}
