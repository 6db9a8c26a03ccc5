import { Inject, Injectable, Logger } from '@nestjs/common';
import { SYSTEM_ACTOR } from '../common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { type FoldedStream, EventStore, modelCallStreamId } from '../event-store';
import { InstanceLease } from '../instances';
import { KeptText } from './kept-text';
import { type ModelCallCommand, modelCallDecider, type ModelCallState } from './model-call.decider';
import type {
  ModelAnswerRecord,
  ModelCallLineage,
  ModelCallReplay,
  ModelCallStartedData,
  ModelCost,
  ModelRequestSummary,
  ModelUsage,
} from './model-call.events';
import type { ModelCallRefusal } from './model-call-gate';
import type { CallOutcome } from './model-call-forwarding';
import { costOf, spentUsageOf } from './model-cost';
import type { RecordedExchange } from './replay/replay-planner';

/** A call this instance forwarded or refused, as it ended: what the metrics count (never another instance's). */
export interface EndedModelCall {
  model: string;
  outcome: 'succeeded' | 'failed' | 'cancelled' | 'refused';
  ttfbMs?: number;
  durationMs?: number;
  usage: ModelUsage;
  cost?: ModelCost;
}

/** The commands that end a call. */
export type ModelCallEnd = Extract<ModelCallCommand, { type: 'finish' | 'fail' }>;

/**
 * One call's `model_call-<id>` stream as the instance forwarding it records it: each command decided by
 * the model-call decider on the state its own appends left (the only writer while the call is in
 * flight; a takeover racing it loses on the stream's version), then appended. Each record waits for the
 * one before; once one could not be recorded, nothing after it is (logged: the call itself went on).
 */
export class CallRecording {
  private folded: FoldedStream<ModelCallState> = { state: modelCallDecider.initialState(), version: 0 };
  private last?: Promise<boolean>;

  constructor(
    private readonly store: Pick<EventStore, 'append'>,
    private readonly logger: Pick<Logger, 'error'>,
    readonly callId: string,
    private readonly sessionId: string,
  ) {}

  /** Decides and appends `command`; `maxDelayMs` lets its commit wait for company (group commit). */
  record(command: ModelCallCommand, maxDelayMs = 0): Promise<boolean> {
    // The first record starts at once (its append goes out with the request), a later one after the one before.
    const recorded = this.last ? this.last.then((ok) => ok && this.append(command, maxDelayMs)) : this.append(command, maxDelayMs);
    this.last = recorded;
    return recorded;
  }

  private async append(command: ModelCallCommand, maxDelayMs: number): Promise<boolean> {
    const { state, version } = this.folded;
    const events = modelCallDecider.decide(command, state);
    if (events.length === 0) return true;
    try {
      await this.store.append(
        modelCallStreamId(this.callId),
        version === 0 ? 'no_stream' : version,
        events.map((event) => ({
          type: event.type,
          data: { ...event.data },
          metadata: { actor: 'switchboard', correlationId: this.sessionId, by: SYSTEM_ACTOR },
        })),
        { maxDelayMs },
      );
      this.folded = { state: events.reduce(modelCallDecider.evolve, state), version: version + events.length };
      return true;
    } catch (error) {
      this.logger.error({ err: error, callId: this.callId, type: events[0].type }, 'could not record a model call');
      return false;
    }
  }
}

/**
 * The recording of model calls: what each command of a call carries (its lineage, request summary, the
 * kept bodies, the cost), and a `CallRecording` per call that decides and appends them.
 */
@Injectable()
export class ModelCallRecorder {
  private readonly logger = new Logger(ModelCallRecorder.name);

  constructor(
    private readonly store: EventStore,
    private readonly lease: InstanceLease,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  recording(callId: string, sessionId: string): CallRecording {
    return new CallRecording(this.store, this.logger, callId, sessionId);
  }

  /** The call as sent: its lineage, what the request says of itself, and the request body when kept. */
  started(
    callId: string,
    requestId: string,
    lineage: ModelCallLineage,
    summary: ModelRequestSummary,
    body: string,
    replay: ModelCallReplay | undefined,
  ): ModelCallCommand {
    const content = this.kept(body);
    const started: ModelCallStartedData = {
      callId,
      requestId,
      ...lineage,
      ...summary,
      ...(content ? { request: content.text, ...(content.truncated ? { requestTruncated: true } : {}) } : {}),
      instanceId: this.lease.instanceId,
      ...(replay ? { replay } : {}),
    };
    return { type: 'start', started };
  }

  /** A call not sent: a budget's refusal, or a replay stopped at its divergence. */
  refused(
    callId: string,
    requestId: string,
    lineage: ModelCallLineage,
    summary: ModelRequestSummary,
    refusal: ModelCallRefusal & { replay?: ModelCallReplay },
  ): ModelCallCommand {
    return { type: 'refuse', refused: { callId, requestId, ...lineage, ...summary, ...refusal, instanceId: this.lease.instanceId } };
  }

  /** How a forwarded call ended, with its cost at the configured prices (the spent part of a failed one). */
  ended(callId: string, lineage: ModelCallLineage, outcome: CallOutcome, model: string, abortedBecause: string | undefined): ModelCallEnd {
    const base = { callId, sessionId: lineage.sessionId, ...(lineage.runId ? { runId: lineage.runId } : {}) };
    if (outcome.kind === 'finished') {
      const cost = costOf(this.config.modelCalls.prices, model, outcome.record.usage);
      return { type: 'finish', finished: { ...base, ...outcome.record, ...(cost ? { cost } : {}) } };
    }
    const cost = costOf(this.config.modelCalls.prices, model, spentUsageOf(outcome.record));
    if (abortedBecause) this.logger.debug({ callId, reason: abortedBecause }, 'model call aborted');
    return {
      type: 'fail',
      failed: {
        ...base,
        ...(outcome.record ?? { answerBytes: outcome.answerBytes, chunks: outcome.chunks }),
        durationMs: outcome.durationMs,
        outcome: outcome.kind,
        error: outcome.error,
        ...(cost ? { cost } : {}),
      },
    };
  }

  /** A recorded answer played back: the original's usage, no cost (nothing reached the model). */
  playedBack(
    callId: string,
    lineage: ModelCallLineage,
    original: RecordedExchange,
    timing: { ttfbMs: number; durationMs: number; chunks: number },
  ): ModelCallCommand {
    const answer = original.answer ?? '';
    const kept = this.kept(answer);
    const { usage, responseId, finishReason } = original;
    const finished: ModelAnswerRecord & { callId: string; sessionId: string; runId?: string } = {
      callId,
      sessionId: lineage.sessionId,
      ...(lineage.runId ? { runId: lineage.runId } : {}),
      status: original.status,
      ttfbMs: timing.ttfbMs,
      durationMs: timing.durationMs,
      usage,
      ...(responseId ? { responseId } : {}),
      ...(finishReason ? { finishReason } : {}),
      answerBytes: Buffer.byteLength(answer),
      chunks: timing.chunks,
      ...(kept ? { answer: kept.text, ...(kept.truncated ? { answerTruncated: true } : {}) } : {}),
    };
    return { type: 'finish', finished };
  }

  private kept(text: string): { text: string; truncated: boolean } | undefined {
    if (this.config.modelCalls.content !== 'full') return undefined;
    const kept = new KeptText(this.config.modelCalls.contentMaxBytes);
    kept.push(text);
    return { text: kept.text(), truncated: kept.truncated };
  }
}

/** What the metrics count of a call's end. */
export function endedCallOf(model: string, end: ModelCallEnd): EndedModelCall {
  if (end.type === 'finish') {
    const { ttfbMs, durationMs, usage, cost } = end.finished;
    return { model, outcome: 'succeeded', ...(ttfbMs !== undefined ? { ttfbMs } : {}), durationMs, usage, ...(cost ? { cost } : {}) };
  }
  const { ttfbMs, durationMs, usage, cost, outcome } = end.failed;
  return { model, outcome, ...(ttfbMs !== undefined ? { ttfbMs } : {}), durationMs, usage: usage ?? {}, ...(cost ? { cost } : {}) };
}
