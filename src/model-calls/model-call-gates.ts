import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { contributionsTo } from '../common';
import { PauseHolds } from '../pauses';
import type { ModelCallLineage } from './model-call.events';
import { MODEL_CALL_GATES, type ModelCallGate, type ModelCallRefusal, type ModelCallSpent } from './model-call-gate';

/** What the gates decided for one call: refuse it, or send it with the lowest output cap any of them asked for. */
export type GateDecision = { refuse: ModelCallRefusal } | { outputCap?: number };

/**
 * What a call passes before it is sent: a pause of its subtree (it waits), and the gates other contexts
 * contribute (`@ProvidesModelCallGate()`: delegation's budgets), which may refuse it or cap its output.
 * A gate counts what the session's previous calls spent from memory: each call's spend is told to the
 * gates (`answered`) before its answer's end reaches the CLI, so the next call never waits for a record.
 */
@Injectable()
export class ModelCallGates implements OnModuleInit {
  private gates: ModelCallGate[] = [];

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

  /** Asks `gates` for the call: the first refusal of any, else the lowest output cap any of them asked for. */
  async admit(gates: readonly ModelCallGate[], lineage: ModelCallLineage, model: string): Promise<GateDecision> {
    let outputCap: number | undefined;
    for (const gate of gates) {
      const admission = await gate.admit({ ...lineage, model });
      if (!admission) continue;
      if ('refuse' in admission) return admission;
      outputCap = outputCap === undefined ? admission.outputCap : Math.min(outputCap, admission.outputCap);
    }
    return { outputCap };
  }

  /** Called just before a forwarded call's answer's end goes to the CLI: every gate learns what it spent. */
  answered(lineage: ModelCallLineage, spent: ModelCallSpent): void {
    for (const gate of this.gates) gate.answered?.(lineage, spent);
  }
}
