import { Contributes } from '../common';
import type { ModelCallLineage, ModelCallRefusedData, ModelCost, ModelUsage } from './model-call.events';

/** The slot other contexts' gates are marked with (`@ProvidesModelCallGate()`): delegation's budgets. */
export const MODEL_CALL_GATES = 'switchboard:model-call-gate';

export function ProvidesModelCallGate(): ClassDecorator {
  return Contributes(MODEL_CALL_GATES);
}

/** A call not to be sent: the limit it would pass, whose budget it is, and the text the agent's loop ends on (as recorded). */
export type ModelCallRefusal = Pick<ModelCallRefusedData, 'limit' | 'used' | 'max' | 'budgetRunId' | 'budgetSessionId' | 'message'>;

/** What a gate decides for one call: refuse it, or send it with its output capped at what is left. */
export type ModelCallAdmission = { refuse: ModelCallRefusal } | { outputCap: number } | undefined;

/** What a forwarded call spent, known as its answer ends: `usage` null when nothing known was spent. */
export interface ModelCallSpent {
  callId: string;
  model: string;
  usage: ModelUsage | null;
  cost?: ModelCost;
}

/**
 * Asked before each call is sent, in the order Nest finds them: the first refusal wins; of the caps,
 * the lowest. Must answer from memory: the CLI waits for the call meanwhile, and the request goes out
 * only once every gate answered (issue 41: no store, projection or lock on a call's path).
 */
export interface ModelCallGate {
  /** Whether the gate may decide anything for the call, answered at once without I/O: only then is `admit` asked. */
  applies(call: ModelCallLineage): boolean;
  admit(call: ModelCallLineage & { model: string }): Promise<ModelCallAdmission>;
  /**
   * A call of this instance spent `spent`: told just before its answer's end goes to the CLI (the CLI may
   * send the session's next call right after), long before its `model_call.finished` commits. Every
   * forwarded call of a session is told, whether the gate applied to it or not.
   */
  answered?(call: ModelCallLineage, spent: ModelCallSpent): void;
}
