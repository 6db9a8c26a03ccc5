import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { PauseHolds } from '../pauses';
import type { ModelCallLineage } from './model-call.events';
import { type ModelCallAdmission, type ModelCallGate, type ModelCallSpent, ProvidesModelCallGate } from './model-call-gate';
import { ModelCallGates } from './model-call-gates';

const lineage = (sessionId: string, runId?: string): ModelCallLineage => ({
  sessionId,
  cliAgentId: sessionId,
  agentName: 'lead',
  lineagePath: ['lead'],
  ...(runId ? { runId } : {}),
});

/** A budget-like gate: decides for runs only, answering what each test sets. */
@Injectable()
@ProvidesModelCallGate()
class RunGate implements ModelCallGate {
  answer: ModelCallAdmission = undefined;
  asked: string[] = [];
  applies(call: ModelCallLineage): boolean {
    return call.runId !== undefined;
  }
  spent: Array<{ sessionId: string; callId: string; usage: ModelCallSpent['usage'] }> = [];
  admit(call: ModelCallLineage & { model: string }): Promise<ModelCallAdmission> {
    this.asked.push(call.model);
    return Promise.resolve(this.answer);
  }
  answered(call: ModelCallLineage, spent: ModelCallSpent): void {
    this.spent.push({ sessionId: call.sessionId, callId: spent.callId, usage: spent.usage });
  }
}

@Injectable()
@ProvidesModelCallGate()
class CapGate implements ModelCallGate {
  applies(): boolean {
    return true;
  }
  admit(): Promise<ModelCallAdmission> {
    return Promise.resolve({ outputCap: 500 });
  }
}

@Module({
  imports: [DiscoveryModule],
  providers: [ModelCallGates, RunGate, CapGate, { provide: PauseHolds, useValue: { waitWhilePaused: () => Promise.resolve(true) } }],
})
class GatesModule {}

describe('ModelCallGates', () => {
  let gates: ModelCallGates;
  let runGate: RunGate;

  beforeAll(async () => {
    const app = await NestFactory.createApplicationContext(GatesModule, { logger: false });
    gates = app.get(ModelCallGates);
    runGate = app.get(RunGate);
  });

  it('asks only the gates that apply: the lowest output cap, or the first refusal', async () => {
    expect(gates.applying(lineage('s1'))).toHaveLength(1);
    expect(await gates.admit(gates.applying(lineage('s1')), lineage('s1'), 'gpt-x')).toEqual({ outputCap: 500 });

    runGate.answer = { outputCap: 120 };
    expect(await gates.admit(gates.applying(lineage('s1', 'r1')), lineage('s1', 'r1'), 'gpt-x')).toEqual({ outputCap: 120 });
    expect(runGate.asked).toEqual(['gpt-x']);

    const refuse = { limit: 'max_tokens', used: 10, max: 10, message: 'spent' };
    runGate.answer = { refuse };
    expect(await gates.admit(gates.applying(lineage('s1', 'r1')), lineage('s1', 'r1'), 'gpt-x')).toEqual({ refuse });
    expect(await gates.admit([], lineage('s1', 'r1'), 'gpt-x')).toEqual({ outputCap: undefined });
  });

  it("tells every gate what a call spent, and asks the session's next call at once, without waiting for any record", async () => {
    runGate.answer = undefined;
    const spent = { callId: 'c1', model: 'gpt-x', usage: { inputTokens: 10, outputTokens: 5 } };
    gates.answered(lineage('s2'), spent);
    // Told even where the gate did not apply: a budget may start covering the session later.
    expect(runGate.spent).toEqual([{ sessionId: 's2', callId: 'c1', usage: { inputTokens: 10, outputTokens: 5 } }]);
    // The session's next call is admitted at once: nothing is awaited but the gates' own answers.
    expect(await gates.admit(gates.applying(lineage('s2')), lineage('s2'), 'gpt-x')).toEqual({ outputCap: 500 });
  });
});
