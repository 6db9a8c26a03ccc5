import { Injectable, Logger } from '@nestjs/common';
import type { CliSessionEvent } from '../copilot-cli';
import { fieldsOf } from '../event-store';
import { Workspaces } from '../workspaces';

/** What the CLI's tool events carry that a checkpoint names. */
interface ToolEventFields {
  toolCallId?: string;
  toolName?: string;
}

/**
 * issue 42: a session with a workspace gets a checkpoint (a commit on its branch, `workspace.checkpointed`)
 * after each tool call that changed files, and at the end of each turn for what no tool call explains (a
 * process a `bash` left running). The CLI's events say when: `tool.execution_complete` names the call,
 * `tool.execution_start` its tool. A checkpoint never holds the event's recording or the turn.
 */
@Injectable()
export class WorkspaceCheckpoints {
  private readonly logger = new Logger(WorkspaceCheckpoints.name);
  /** toolCallId → tool name, from the start event to the complete event. */
  private readonly toolNames = new Map<string, string>();

  constructor(private readonly workspaces: Workspaces) {}

  noteCliEvent(sessionId: string, event: CliSessionEvent['event']): void {
    const data = fieldsOf<ToolEventFields>(event.data);
    const fields = {
      toolCallId: typeof data.toolCallId === 'string' ? data.toolCallId : undefined,
      toolName: typeof data.toolName === 'string' ? data.toolName : undefined,
    };
    switch (event.type) {
      case 'tool.execution_start':
        if (fields.toolCallId && fields.toolName) this.toolNames.set(fields.toolCallId, fields.toolName);
        return;
      case 'tool.execution_complete': {
        const toolName = fields.toolCallId ? this.toolNames.get(fields.toolCallId) : undefined;
        if (fields.toolCallId) this.toolNames.delete(fields.toolCallId);
        this.take(sessionId, { cause: 'tool', ...(fields.toolCallId ? { toolCallId: fields.toolCallId } : {}), ...(toolName ? { toolName } : {}) });
        return;
      }
      case 'session.idle':
        this.take(sessionId, { cause: 'turn-end' });
        return;
    }
  }

  private take(sessionId: string, cause: Parameters<Workspaces['checkpoint']>[1]): void {
    this.workspaces
      .checkpoint(sessionId, cause)
      .catch((error: unknown) => this.logger.warn({ sessionId, err: error }, 'could not checkpoint the session’s workspace'));
  }
}
