import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { filter, type Observable, Subject, type Subscription } from 'rxjs';
import { v7 as uuidv7 } from 'uuid';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { CopilotCliConnection } from '../copilot-cli';
import { EventStore, type StoredEvent, parseStreamId, runThreadId, sessionIdOfStream } from '../event-store';
import { SessionEvents } from '../sessions';
import type { ModelCallLineage, ModelCost, ModelRequestSummary, ModelUsage } from './model-call.events';
import { ModelCallForwarding } from './model-call-forwarding';
import { ModelCallGates } from './model-call-gates';
import { ModelCallLineages } from './model-call-lineages';
import { type CallRecording, type EndedModelCall, endedCallOf, ModelCallRecorder } from './model-call-recording';
import { chunkFrameOf, Exchange, type RequestChunkFrame, type RequestStartFrame, startFrameOf } from './model-exchange';
import { costOf } from './model-cost';
import { requestFactsOf, withOutputCap } from './request-summary';
import { recordedAnswerFrames } from './replay/recorded-answer';
import { type ReplayPlan, ReplayPlanner } from './replay/replay-planner';
import { pathForLedger, upstreamRequestOf } from './upstream-request';

/**
 * How long a call's `model_call.started` may wait for its commit (and for company in it): past the request
 * going out and, for a model that answers at once, past the answer (`bench:model-calls`). Nothing waits
 * for that commit (issue 41), and no commit waits for the disk on the event loop any more; the delay keeps
 * the commit's own work (its inline projections) off the stretch between the request and its first answer
 * chunk, and lets a quick call's start and end share one commit and one WAL sync.
 */
const STARTED_COMMIT_DELAY_MS = 25;

/**
 * issue 25: Switchboard as the only way to a model. The CLI, once it accepted `llmInference.setProvider`
 * (CopilotCliConnection), hands every model HTTP request here; each is resolved onto its lineage, asked
 * of the gates (ModelCallGates: a pause holds it, budgets refuse before spending or cap the output),
 * forwarded to the configured provider with Switchboard's key and streamed back chunk by chunk as it
 * arrives (ModelCallForwarding), and kept as a `model_call-<id>` stream through the model-call decider
 * (ModelCallRecorder): `model_call.started` (appended while the request goes out, never in its way), then
 * one `model_call.finished` / `failed` with the answer, its usage and cost. A CLI cancel, or the end of the
 * call's session, its turn or its run, aborts the upstream request.
 */
@Injectable()
export class ModelRoute implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ModelRoute.name);
  private readonly exchanges = new Map<string, Exchange>();
  private endings?: Subscription;
  private readonly ended = new Subject<EndedModelCall>();
  /** Each call of a session this instance forwarded or refused, once it ended (recorded or not). */
  readonly ended$: Observable<EndedModelCall> = this.ended.asObservable();

  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly lineages: ModelCallLineages,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly replays: ReplayPlanner,
    private readonly forwarding: ModelCallForwarding,
    private readonly recorder: ModelCallRecorder,
    private readonly gates: ModelCallGates,
  ) {}

  onModuleInit(): void {
    this.cli.handleRequests('llmInference.httpRequestStart', (params) => Promise.resolve(this.onStart(startFrameOf(params))));
    this.cli.handleRequests('llmInference.httpRequestChunk', (params) => Promise.resolve(this.onChunk(chunkFrameOf(params))));
    this.endings = this.store.committed$
      .pipe(filter((event) => ENDING_TYPES.has(event.type)))
      .subscribe((event) => this.abortSession(endedSessionOf(event), `${event.type} was recorded`));
  }

  onModuleDestroy(): void {
    this.endings?.unsubscribe();
    for (const exchange of this.exchanges.values()) exchange.abortBecause('Switchboard is stopping');
    this.forwarding.close();
    this.ended.complete();
  }

  /** Calls being answered now, for /health and the metrics. */
  inFlight(): number {
    return this.exchanges.size;
  }

  private onStart(frame: RequestStartFrame | undefined): Record<string, never> {
    if (!frame) return {};
    const exchange = this.exchangeOf(frame.requestId);
    exchange.start = frame;
    this.forwardWhenReady(exchange);
    return {};
  }

  private onChunk(frame: RequestChunkFrame | undefined): Record<string, never> {
    if (!frame) return {};
    // A chunk may come before its start frame: it is kept for it.
    const exchange = this.exchangeOf(frame.requestId);
    if (frame.cancel) {
      exchange.cancelledByCli = true;
      exchange.abortBecause(`the Copilot CLI cancelled the call${frame.cancelReason ? `: ${frame.cancelReason}` : ''}`);
      if (!exchange.forwarding) this.exchanges.delete(exchange.requestId);
      return {};
    }
    if (typeof frame.data === 'string' && frame.data.length > 0) {
      exchange.body.push(frame.binary ? Buffer.from(frame.data, 'base64').toString('utf8') : frame.data);
    }
    if (frame.end) {
      exchange.bodyEnded = true;
      this.forwardWhenReady(exchange);
    }
    return {};
  }

  private exchangeOf(requestId: string): Exchange {
    let exchange = this.exchanges.get(requestId);
    if (!exchange) this.exchanges.set(requestId, (exchange = new Exchange(requestId)));
    return exchange;
  }

  private forwardWhenReady(exchange: Exchange): void {
    if (!exchange.start || !exchange.bodyEnded || exchange.forwarding) return;
    exchange.forwarding = true;
    void this.forward(exchange, exchange.start)
      .catch((error: unknown) => this.logger.error({ err: error, requestId: exchange.requestId }, 'model call could not be answered'))
      .finally(() => this.exchanges.delete(exchange.requestId));
  }

  private abortSession(sessionId: string | undefined, reason: string): void {
    if (!sessionId) return;
    for (const exchange of this.exchanges.values()) {
      if (exchange.start?.sessionId === sessionId) exchange.abortBecause(reason);
    }
  }

  private async forward(exchange: Exchange, start: RequestStartFrame): Promise<void> {
    const requestBody = exchange.body.join('');
    let received = performance.now();
    const upstream = upstreamRequestOf(this.config.cli, start);
    // Outside any session (the CLI's model catalog at start): forwarded, not a call of anyone's.
    const { sessionId } = start;
    if (!sessionId) {
      await this.forwarding.answer(exchange, upstream, requestBody, received, undefined);
      return;
    }
    const facts = requestFactsOf(requestBody);
    const lineage = await this.lineages.of({ ...start, sessionId });
    const holdStarted = performance.now();
    if (!(await this.gates.waitWhilePaused(sessionId, exchange.abort.signal))) {
      if (!exchange.cancelledByCli)
        await this.forwarding.endWithError(exchange.requestId, false, exchange.abortedBecause ?? 'its run or session ended while paused', 'cancelled');
      return;
    }
    // The call's timing (and the provider's health) starts when it is let go, not while it was held.
    received += performance.now() - holdStarted;
    const summary: ModelRequestSummary = {
      model: facts.model,
      provider: upstream.provider,
      ...(start.interactionType ? { interactionType: start.interactionType } : {}),
      ...(start.headers['x-initiator']?.[0] ? { initiator: start.headers['x-initiator'][0] } : {}),
      method: start.method,
      path: pathForLedger(start.url),
      requestBytes: Buffer.byteLength(requestBody),
      messageCount: facts.messageCount,
      toolCount: facts.toolCount,
      stream: facts.stream,
      ...(facts.maxOutputTokens !== undefined ? { maxOutputTokens: facts.maxOutputTokens } : {}),
    };
    const callId = uuidv7();
    const recording = this.recorder.recording(callId, sessionId);
    // issue 26: a replay's or fork's session is answered from the record where it can (replay/).
    const replay = await this.replays.plan(lineage, requestBody);
    if (replay && replay.kind !== 'live') {
      await this.answerFromRecord(exchange, recording, lineage, summary, replay, requestBody, received);
      // A played-back call reached no provider and spent nothing: only a refusal counts in the metrics.
      if (replay.kind === 'refuse') this.ended.next({ model: summary.model, outcome: 'refused', usage: {} });
      return;
    }
    if (replay && replay.body !== requestBody) {
      // A fork's changes (its message, an agent's model or prompt): the ledger says what was sent.
      const changed = requestFactsOf(replay.body);
      Object.assign(summary, { model: changed.model, requestBytes: Buffer.byteLength(replay.body), messageCount: changed.messageCount });
    }
    const gates = this.gates.applying(lineage);
    const admission = await this.gates.admit(gates, lineage, facts.model);
    if ('refuse' in admission) {
      const refusal = admission.refuse;
      this.logger.warn({ callId, sessionId, runId: lineage.runId, limit: refusal.limit }, 'model call refused: a budget over it is spent');
      const recorded = recording.record(this.recorder.refused(callId, exchange.requestId, lineage, summary, refusal));
      await this.forwarding.refuse(exchange.requestId, refusal.message, 'switchboard_budget_exhausted');
      await recorded;
      this.ended.next({ model: summary.model, outcome: 'refused', usage: {} });
      return;
    }
    let body = replay?.body ?? requestBody;
    if (admission.outputCap !== undefined) {
      const capped = withOutputCap(body, admission.outputCap, upstream.provider, summary.path);
      if (capped !== undefined && capped !== body) {
        body = capped;
        summary.cappedOutputTokens = Math.max(1, Math.floor(admission.outputCap));
      }
    }
    const model = summary.model;
    const spent = (usage: ModelUsage | null) =>
      this.gates.answered(lineage, { callId, model, usage, ...optionalCost(costOf(this.config.modelCalls.prices, model, usage)) });
    const answering = this.forwarding.answer(exchange, upstream, body, received, model, spent);
    // Recorded beside the request, never in its way: built and appended once the request is on the socket
    // (its write goes out before the check phase); nothing the call or the session's next call waits on
    // reads it (the gates count spend from memory, told before the answer's end reaches the CLI).
    const startedRecorded = new Promise<void>((queued) =>
      setImmediate(() => {
        void recording.record(this.recorder.started(callId, exchange.requestId, lineage, summary, body, replay?.replay), STARTED_COMMIT_DELAY_MS);
        queued();
      }),
    );
    const outcome = await answering;
    // The end is recorded after the start (CallRecording appends in the order asked).
    await startedRecorded;
    const ended = this.recorder.ended(callId, lineage, outcome, summary.model, exchange.abortedBecause);
    this.ended.next(endedCallOf(summary.model, ended));
    await recording.record(ended);
  }

  /**
   * issue 26: a replay's call answered without the model: the original's answer played back (recorded as
   * started and finished, with the recorded usage and no cost), or, at a divergence the replay stops on,
   * refused with a 400 whose message the CLI's turn ends on (`limit: 'replay_divergence'`).
   */
  private async answerFromRecord(
    exchange: Exchange,
    recording: CallRecording,
    lineage: ModelCallLineage,
    summary: ModelRequestSummary,
    plan: Exclude<ReplayPlan, { kind: 'live' }>,
    requestBody: string,
    received: number,
  ): Promise<void> {
    const { requestId } = exchange;
    const { callId } = recording;
    if (plan.kind === 'refuse') {
      this.logger.warn(
        { callId, sessionId: lineage.sessionId, runId: lineage.runId, divergence: plan.replay.divergence?.part },
        'replay stopped at a divergence',
      );
      const refusal = { limit: 'replay_divergence', used: 0, max: 0, message: plan.message, replay: plan.replay };
      const recorded = recording.record(this.recorder.refused(callId, requestId, lineage, summary, refusal));
      await this.forwarding.refuse(requestId, plan.message, 'switchboard_replay_diverged');
      await recorded;
      return;
    }
    void recording.record(this.recorder.started(callId, requestId, lineage, summary, requestBody, plan.replay), STARTED_COMMIT_DELAY_MS);
    const frames = recordedAnswerFrames(plan.original);
    const ttfbMs = Math.round(performance.now() - received);
    await this.forwarding.playBack(requestId, frames);
    const timing = { ttfbMs, durationMs: Math.round(performance.now() - received), chunks: frames.chunks.length };
    await recording.record(this.recorder.playedBack(callId, lineage, plan.original, timing));
  }
}

/**
 * Events after which a session's calls in flight have nobody to answer: its end, its CLI's loss, a stop
 * of its turn or of its run (`run.stopped` by name: delegation sits above this context).
 */
const ENDING_TYPES = new Set<string>([SessionEvents.destroyed, SessionEvents.interrupted, SessionEvents.abortRequested, 'run.stopped']);

function optionalCost(cost: ModelCost | undefined): { cost?: ModelCost } {
  return cost ? { cost } : {};
}

function endedSessionOf(event: StoredEvent): string | undefined {
  const stream = parseStreamId(event.streamId);
  if (stream?.kind === 'run') return runThreadId(stream.id);
  return sessionIdOfStream(event.streamId);
}
