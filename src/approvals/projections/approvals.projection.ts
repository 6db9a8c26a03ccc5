import { actorOfMetadata } from '../../common';
import { eq } from 'drizzle-orm';
import type { ReadModelDatabase } from '../../database';
import type { StoredEvent } from '../../event-store';
import { type ProjectionWork, PerEventProjection, ReadModelProjection, run } from '../../projections';
import { ApprovalEvents, isApprovalEvent } from '../approval.events';

const json = (v: unknown): string | null => (v === undefined ? null : JSON.stringify(v));

/** Inline: a decision is in the list (and in the session grants the policy reads) as soon as it is recorded. */
@ReadModelProjection()
export class ApprovalsProjection extends PerEventProjection {
  readonly name = 'approvals';
  readonly mode = 'inline';
  readonly tables = ['approvals'] as const;
  readonly eventTypes = Object.values(ApprovalEvents);

  *apply(event: StoredEvent, db: ReadModelDatabase): ProjectionWork {
    if (!isApprovalEvent(event)) return;
    const { approvals } = db.tables;
    switch (event.type) {
      case ApprovalEvents.asked: {
        const d = event.data;
        yield* run(
          db.orm
            .insert(approvals)
            .values({
              approvalId: d.approvalId,
              askedPosition: event.globalPosition,
              status: 'pending',
              kind: d.kind,
              toolName: d.toolName ?? null,
              arguments: json(d.arguments),
              sessionId: d.sessionId,
              childSessionId: d.childSessionId ?? null,
              agentName: d.agentName ?? null,
              runId: d.runId ?? null,
              rootRunId: d.rootRunId ?? null,
              lineagePath: JSON.stringify(d.lineagePath),
              requestedAt: event.recordedAt,
            })
            .onConflictDoNothing(),
        );
        return;
      }
      case ApprovalEvents.decided: {
        const d = event.data;
        yield* run(
          db.orm
            .update(approvals)
            .set({
              status: 'decided',
              decidedAt: event.recordedAt,
              decision: d.decision,
              scope: d.scope,
              decidedBy: d.decidedBy,
              decider: JSON.stringify(actorOfMetadata(event.metadata)),
              reason: d.reason ?? null,
            })
            .where(eq(approvals.approvalId, d.approvalId)),
        );
        return;
      }
      case ApprovalEvents.expired:
        yield* run(
          db.orm
            .update(approvals)
            .set({ status: 'expired', decidedAt: event.recordedAt, reason: event.data.reason, decider: JSON.stringify(actorOfMetadata(event.metadata)) })
            .where(eq(approvals.approvalId, event.data.approvalId)),
        );
    }
  }
}
