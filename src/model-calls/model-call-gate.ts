import { Contributes } from '../common';
import type { ModelCallLineage, ModelCallRefusedData } from './model-call.events';

/** The slot other contexts' gates are marked with (`@ProvidesModelCallGate()`): delegation's budgets. */
export const MODEL_CALL_GATES = 'switchboard:model-call-gate';

export function ProvidesModelCallGate(): ClassDecorator {
  return Contributes(MODEL_CALL_GATES);
}

/** A call not to be sent: the limit it would pass, whose budget it is, and the text the agent's loop ends on (as recorded). */
export type ModelCallRefusal = Pick<ModelCallRefusedData, 'limit' | 'used' | 'max' | 'budgetRunId' | 'budgetSessionId' | 'message'>;

/** What a gate decides for one call: refuse it, or send it with its output capped at what is left. */
export type ModelCallAdmission = { refuse: ModelCallRefusal } | { outputCap: number } | undefined;

/**
 * Asked before each call is sent, in the order Nest finds them: the first refusal wins; of the caps,
 * the lowest. Must answer quickly: the CLI waits for the call meanwhile.
 */
export interface ModelCallGate {
  /**
   * Whether the gate may decide anything for the call, answered at once without I/O: only then does the
   * call wait for the usage of its session's previous answer to be recorded and is `admit` asked.
   */
  applies(call: ModelCallLineage): boolean;
  admit(call: ModelCallLineage & { model: string }): Promise<ModelCallAdmission>;
}
