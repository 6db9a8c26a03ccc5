import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { contributionsTo } from '../common';
import { PauseHolds } from '../pauses';
import type { ModelCallLineage } from './model-call.events';
import { MODEL_CALL_GATES, type ModelCallGate, type ModelCallRefusal } from './model-call-gate';
import type { Exchange } from './model-exchange';

/** What the gates decided for one call: refuse it, or send it with the lowest output cap any of them asked for. */
export type GateDecision = { refuse: ModelCallRefusal } | { outputCap?: number };

/**
 * What a call passes before it is sent: a pause of its subtree (it waits), and the gates other contexts
 * contribute (`@ProvidesModelCallGate()`: delegation's budgets), which may refuse it or cap its output.
 * A gate counts what the session's previous calls spent: the CLI sends its next call as soon as the last
 * answer ended, maybe before that answer's usage was recorded, so a gated call waits for those records.
 */
@Injectable()
export class ModelCallGates implements OnModuleInit {
  private gates: ModelCallGate[] = [];
  /** Per session: calls whose answer ended at the CLI but whose usage is not recorded yet. */
  private readonly unrecorded = new Map<string, Set<Exchange>>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly pauses: PauseHolds,
  ) {}

  onModuleInit(): void {
    this.gates = contributionsTo<ModelCallGate>(this.discovery, MODEL_CALL_GATES);
  }

  /** issue 26: a paused subtree's call waits here, before any gate or the provider sees it; false when it was aborted meanwhile. */
  waitWhilePaused(sessionId: string, signal: AbortSignal): Promise<boolean> {
    return this.pauses.waitWhilePaused(sessionId, signal);
  }

  /** The gates that may decide anything for the call (answered at once, without I/O). */
  applying(lineage: ModelCallLineage): ModelCallGate[] {
    return this.gates.filter((gate) => gate.applies(lineage));
  }

  /**
   * Asks `gates` for the call, once its session's previous answers are recorded: the first refusal of
   * any, else the lowest output cap any of them asked for. No gate, no wait.
   */
  async admit(gates: readonly ModelCallGate[], lineage: ModelCallLineage, model: string): Promise<GateDecision> {
    if (gates.length > 0) await this.previousAnswersRecorded(lineage.sessionId);
    let outputCap: number | undefined;
    for (const gate of gates) {
      const admission = await gate.admit({ ...lineage, model });
      if (!admission) continue;
      if ('refuse' in admission) return admission;
      outputCap = outputCap === undefined ? admission.outputCap : Math.min(outputCap, admission.outputCap);
    }
    return { outputCap };
  }

  /** Called just before an answer's end goes to the CLI: from then on its session's next call waits for its record. */
  answerEnding(exchange: Exchange): void {
    const sessionId = exchange.start?.sessionId;
    if (!sessionId || exchange.recorded || this.gates.length === 0) return;
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    exchange.recorded = { done, resolve };
    let pending = this.unrecorded.get(sessionId);
    if (!pending) this.unrecorded.set(sessionId, (pending = new Set()));
    pending.add(exchange);
  }

  /** The call's end is recorded (or never will be): its session's next call goes on. */
  answerRecorded(exchange: Exchange): void {
    const sessionId = exchange.start?.sessionId;
    if (!exchange.recorded || !sessionId) return;
    exchange.recorded.resolve();
    const pending = this.unrecorded.get(sessionId);
    pending?.delete(exchange);
    if (pending?.size === 0) this.unrecorded.delete(sessionId);
  }

  private async previousAnswersRecorded(sessionId: string): Promise<void> {
    const pending = this.unrecorded.get(sessionId);
    if (pending) await Promise.all([...pending].flatMap((exchange) => (exchange.recorded ? [exchange.recorded.done] : [])));
  }
}
