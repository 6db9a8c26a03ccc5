import { Injectable, Module } from '@nestjs/common';
import { DiscoveryModule, NestFactory } from '@nestjs/core';
import { PauseHolds } from '../pauses';
import type { ModelCallLineage } from './model-call.events';
import { type ModelCallAdmission, type ModelCallGate, ProvidesModelCallGate } from './model-call-gate';
import { ModelCallGates } from './model-call-gates';
import { Exchange } from './model-exchange';

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
  admit(call: ModelCallLineage & { model: string }): Promise<ModelCallAdmission> {
    this.asked.push(call.model);
    return Promise.resolve(this.answer);
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

  it("holds a session's next gated call until its previous answer is recorded", async () => {
    const previous = new Exchange('q1');
    previous.start = { requestId: 'q1', sessionId: 's2', method: 'POST', url: 'http://x', headers: {} };
    gates.answerEnding(previous);
    runGate.answer = undefined;
    let admitted = false;
    const admission = gates.admit(gates.applying(lineage('s2')), lineage('s2'), 'gpt-x').then(() => (admitted = true));
    // Another session's calls do not wait for it.
    expect(await gates.admit(gates.applying(lineage('s3')), lineage('s3'), 'gpt-x')).toEqual({ outputCap: 500 });
    expect(admitted).toBe(false);
    gates.answerRecorded(previous);
    await admission;
    expect(admitted).toBe(true);
  });
});
