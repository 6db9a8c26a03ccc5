import { ProvidesStepAttribution, type StepAttributionSource, type StepFacts, type StepReference } from '../workspaces';
import { ModelCallsReadModel } from './model-calls-read-model';

/**
 * issue 42: the model call that asked for a checkpointed step's tool. The CLI names the answer a tool call
 * came in (`apiCallId`, the answer's `chatcmpl-…` id); the ledger recorded that id as the call's
 * `responseId`, within the same session.
 */
@ProvidesStepAttribution()
export class ModelCallStepAttribution implements StepAttributionSource {
  constructor(private readonly calls: ModelCallsReadModel) {}

  async attribute(steps: readonly StepReference[]): Promise<ReadonlyArray<StepFacts | undefined>> {
    const asked = steps.filter((s) => s.modelResponseId);
    const byAnswer = await this.calls.callIdsByAnswer([...new Set(asked.map((s) => s.sessionId))], [...new Set(asked.map((s) => s.modelResponseId!))]);
    return steps.map((step) => {
      const modelCallId = step.modelResponseId ? byAnswer.get(`${step.sessionId}\n${step.modelResponseId}`) : undefined;
      return modelCallId ? { modelCallId } : undefined;
    });
  }
}
