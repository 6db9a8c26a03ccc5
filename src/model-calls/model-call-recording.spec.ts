import type { EventStore } from '../event-store';
import { CallRecording } from './model-call-recording';
import type { ModelCallCommand } from './model-call.decider';

const LINEAGE = { sessionId: 's1', cliAgentId: 's1', agentName: 'lead', lineagePath: ['lead'] };
const SUMMARY = {
  model: 'gpt-x',
  provider: 'openai',
  method: 'POST',
  path: '/chat/completions',
  requestBytes: 2,
  messageCount: 1,
  toolCount: 0,
  stream: true,
};
const start: ModelCallCommand = { type: 'start', started: { callId: 'c1', requestId: 'q1', ...LINEAGE, ...SUMMARY, instanceId: 'i1' } };
const finish: ModelCallCommand = {
  type: 'finish',
  finished: { callId: 'c1', sessionId: 's1', status: 200, durationMs: 5, usage: {}, answerBytes: 3, chunks: 1 },
};
const refuse: ModelCallCommand = {
  type: 'refuse',
  refused: { callId: 'c1', requestId: 'q1', ...LINEAGE, ...SUMMARY, limit: 'max_tokens', used: 10, max: 10, message: 'spent', instanceId: 'i1' },
};

function recordingOn(fails: (streamId: string, version: unknown) => boolean = () => false) {
  const appends: Array<{ streamId: string; expectedVersion: unknown; types: string[]; maxDelayMs?: number }> = [];
  const store: Pick<EventStore, 'append'> = {
    append: (streamId, expectedVersion, events, options) => {
      appends.push({ streamId, expectedVersion, types: events.map((event) => event.type), maxDelayMs: options?.maxDelayMs });
      return fails(streamId, expectedVersion) ? Promise.reject(new Error('disk full')) : Promise.resolve({ streamId, nextExpectedVersion: 1, events: [] });
    },
  };
  const errors: unknown[] = [];
  const recording = new CallRecording(store, { error: (message: unknown) => void errors.push(message) }, 'c1', 's1');
  return { recording, appends, errors };
}

describe('CallRecording', () => {
  it("decides each command on the state its own appends left and appends it at the stream's version", async () => {
    const { recording, appends } = recordingOn();
    const started = recording.record(start, 25);
    // The start's append goes out at once, with the request, not a turn later.
    expect(appends).toHaveLength(1);
    expect(await started).toBe(true);
    expect(await recording.record(finish)).toBe(true);
    // A second end of the same call decides nothing: nothing is appended.
    expect(await recording.record({ type: 'fail', failed: { callId: 'c1', sessionId: 's1', durationMs: 1, outcome: 'failed', error: 'x' } })).toBe(true);
    expect(appends).toEqual([
      { streamId: 'model_call-c1', expectedVersion: 'no_stream', types: ['model_call.started'], maxDelayMs: 25 },
      { streamId: 'model_call-c1', expectedVersion: 1, types: ['model_call.finished'], maxDelayMs: 0 },
    ]);
  });

  it('waits for the record before, and records nothing after one that failed (logged)', async () => {
    const { recording, appends, errors } = recordingOn((_, version) => version === 'no_stream');
    const started = recording.record(start);
    const finished = recording.record(finish);
    expect(await started).toBe(false);
    expect(await finished).toBe(false);
    expect(appends.map((append) => append.types)).toEqual([['model_call.started']]);
    expect(errors).toHaveLength(1);
  });

  it('refuses a call never started, and finishes none that was refused', async () => {
    const { recording, appends } = recordingOn();
    await recording.record(refuse);
    await recording.record(finish);
    expect(appends.map((append) => [append.expectedVersion, append.types])).toEqual([['no_stream', ['model_call.refused']]]);
  });
});
