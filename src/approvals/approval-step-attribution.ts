import { and, eq, inArray } from 'drizzle-orm';
import type { Actor } from '../common';
import { ReadModelDatabase } from '../database';
import { fieldsOf } from '../event-store';
import { ProvidesStepAttribution, type StepApproval, type StepAttributionSource, type StepFacts, type StepReference } from '../workspaces';
import type { PermissionRequestArguments } from './approval.events';

/**
 * issue 42: who approved the tool call of a checkpointed step, for a line's attribution. An approval names
 * its tool call in the CLI's request (`arguments.toolCallId`); a call the policy allowed without asking a
 * person has no approval, and none is shown.
 */
@ProvidesStepAttribution()
export class ApprovalStepAttribution implements StepAttributionSource {
  constructor(private readonly db: ReadModelDatabase) {}

  async attribute(steps: readonly StepReference[]): Promise<ReadonlyArray<StepFacts | undefined>> {
    const sessions = [...new Set(steps.filter((s) => s.toolCallId).map((s) => s.sessionId))];
    if (sessions.length === 0) return [];
    const { approvals } = this.db.tables;
    const rows = await this.db.orm
      .select()
      .from(approvals)
      .where(and(inArray(approvals.sessionId, sessions), eq(approvals.status, 'decided')));
    const byCall = new Map<string, StepApproval>();
    for (const row of rows) {
      const toolCallId = fieldsOf<PermissionRequestArguments>(parse(row.arguments)).toolCallId;
      if (typeof toolCallId !== 'string' || !row.decision) continue;
      byCall.set(`${row.sessionId}\n${toolCallId}`, {
        approvalId: row.approvalId,
        decision: row.decision,
        scope: row.scope,
        decidedBy: row.decidedBy,
        decider: row.decider ? (parse(row.decider) as Actor) : null,
        decidedAt: row.decidedAt,
      });
    }
    return steps.map((step) => {
      const approval = step.toolCallId ? byCall.get(`${step.sessionId}\n${step.toolCallId}`) : undefined;
      return approval ? { approval } : undefined;
    });
  }
}

function parse(text: string | null): unknown {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
