import { and, inArray } from 'drizzle-orm';
import { ReadModelDatabase } from '../database';
import { ProvidesStepAttribution, type StepAttributionSource, type StepFacts, type StepReference } from '../workspaces';

/**
 * issue 42: the model call that asked for a checkpointed step's tool. The CLI names the answer a tool call
 * came in (`apiCallId`, the answer's `chatcmpl-…` id); the ledger recorded that id as the call's
 * `responseId`, within the same session.
 */
@ProvidesStepAttribution()
export class ModelCallStepAttribution implements StepAttributionSource {
  constructor(private readonly db: ReadModelDatabase) {}

  async attribute(steps: readonly StepReference[]): Promise<ReadonlyArray<StepFacts | undefined>> {
    const asked = steps.filter((s) => s.modelResponseId);
    if (asked.length === 0) return [];
    const { modelCalls } = this.db.tables;
    const rows = await this.db.orm
      .select({ callId: modelCalls.callId, sessionId: modelCalls.sessionId, responseId: modelCalls.responseId })
      .from(modelCalls)
      .where(
        and(
          inArray(modelCalls.sessionId, [...new Set(asked.map((s) => s.sessionId))]),
          inArray(modelCalls.responseId, [...new Set(asked.map((s) => s.modelResponseId!))]),
        ),
      );
    const byAnswer = new Map(rows.map((row) => [`${row.sessionId}\n${row.responseId}`, row.callId]));
    return steps.map((step) => {
      const modelCallId = step.modelResponseId ? byAnswer.get(`${step.sessionId}\n${step.modelResponseId}`) : undefined;
      return modelCallId ? { modelCallId } : undefined;
    });
  }
}
