import { deciderSpec } from '../../test/fixtures/decider-spec';
import { foldEvents } from '../event-store';
import { modelCallDecider } from './model-call.decider';
import {
  type ModelCallEvent,
  ModelCallEvents,
  type ModelCallFailedData,
  type ModelCallFinishedData,
  type ModelCallRefusedData,
  type ModelCallStartedData,
} from './model-call.events';

const given = deciderSpec(modelCallDecider);

const lineage = { sessionId: 's1', cliAgentId: 's1', agentName: 'lead', runId: 'r1', rootRunId: 'r1', lineagePath: ['lead'] };
const summary = {
  model: 'gpt-4.1',
  provider: 'openai',
  method: 'POST',
  path: '/chat/completions',
  requestBytes: 120,
  messageCount: 2,
  toolCount: 0,
  stream: true,
};
const started: ModelCallStartedData = { callId: 'c1', requestId: 'q1', ...lineage, ...summary, instanceId: 'i1' };
const finished: ModelCallFinishedData = {
  callId: 'c1',
  sessionId: 's1',
  runId: 'r1',
  status: 200,
  ttfbMs: 12,
  durationMs: 40,
  usage: { inputTokens: 10, outputTokens: 5 },
  answerBytes: 300,
  chunks: 4,
};
const failed: ModelCallFailedData = {
  callId: 'c1',
  sessionId: 's1',
  runId: 'r1',
  durationMs: 9,
  outcome: 'failed',
  error: 'the model provider answered 503',
};
const cancelled: ModelCallFailedData = { ...failed, outcome: 'cancelled', error: 'the Copilot CLI cancelled the call' };
const refused: ModelCallRefusedData = {
  callId: 'c1',
  requestId: 'q1',
  ...lineage,
  ...summary,
  limit: 'max_tokens',
  used: 1000,
  max: 1000,
  budgetRunId: 'r1',
  message: 'The run r1 spent its 1000 tokens',
  instanceId: 'i1',
};

const startedEvent: ModelCallEvent = { type: ModelCallEvents.started, data: started };
const finishedEvent: ModelCallEvent = { type: ModelCallEvents.finished, data: finished };
const failedEvent: ModelCallEvent = { type: ModelCallEvents.failed, data: failed };
const refusedEvent: ModelCallEvent = { type: ModelCallEvents.refused, data: refused };
const interruptedEvent: ModelCallEvent = {
  type: ModelCallEvents.interrupted,
  data: { callId: 'c1', sessionId: 's1', runId: 'r1', reason: 'instance i1 stopped' },
};

describe('modelCallDecider', () => {
  it('starts a call once', () => {
    given().when({ type: 'start', started }).then([startedEvent]);
    given(startedEvent).when({ type: 'start', started }).then([]);
  });

  it('ends a call in flight once: finished, failed or cancelled', () => {
    given(startedEvent).when({ type: 'finish', finished }).then([finishedEvent]);
    given(startedEvent).when({ type: 'fail', failed }).then([failedEvent]);
    given(startedEvent)
      .when({ type: 'fail', failed: cancelled })
      .then([{ type: ModelCallEvents.failed, data: cancelled }]);
  });

  it('records nothing for an end of a call that already ended, or never started (the first end recorded wins)', () => {
    for (const history of [[startedEvent, finishedEvent], [startedEvent, failedEvent], [startedEvent, interruptedEvent], []]) {
      given(...history)
        .when({ type: 'finish', finished })
        .then([]);
      given(...history)
        .when({ type: 'fail', failed })
        .then([]);
      given(...history)
        .when({ type: 'interrupt', callId: 'c1', reason: 'takeover' })
        .then([]);
    }
  });

  it('refuses a call that was never sent, once; a started call is not refused', () => {
    given().when({ type: 'refuse', refused }).then([refusedEvent]);
    given(refusedEvent).when({ type: 'refuse', refused }).then([]);
    given(startedEvent).when({ type: 'refuse', refused }).then([]);
    given(refusedEvent).when({ type: 'start', started }).then([]);
    given(refusedEvent).when({ type: 'finish', finished }).then([]);
  });

  it('interrupts a call left in flight with the session and run it was started for', () => {
    given(startedEvent).when({ type: 'interrupt', callId: 'c1', reason: 'instance i1 stopped' }).then([interruptedEvent]);
    const withoutRun: ModelCallEvent = { type: ModelCallEvents.started, data: { ...started, runId: undefined } };
    given(withoutRun)
      .when({ type: 'interrupt', callId: 'c1', reason: 'gone' })
      .then([{ type: ModelCallEvents.interrupted, data: { callId: 'c1', sessionId: 's1', reason: 'gone' } }]);
  });

  it('folds each history to the status the read model shows', () => {
    const statusOf = (...events: ModelCallEvent[]) => foldEvents(modelCallDecider, events).status;
    expect(statusOf()).toBe('absent');
    expect(statusOf(startedEvent)).toBe('in_flight');
    expect(statusOf(startedEvent, finishedEvent)).toBe('succeeded');
    expect(statusOf(startedEvent, failedEvent)).toBe('failed');
    expect(statusOf(startedEvent, { type: ModelCallEvents.failed, data: cancelled })).toBe('cancelled');
    expect(statusOf(refusedEvent)).toBe('refused');
    expect(statusOf(startedEvent, interruptedEvent)).toBe('interrupted');
    expect(foldEvents(modelCallDecider, [startedEvent, finishedEvent])).toEqual({ status: 'succeeded', sessionId: 's1', runId: 'r1' });
  });
});
