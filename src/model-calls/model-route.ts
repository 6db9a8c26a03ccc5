import { SYSTEM_ACTOR } from '../common/actor';
import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { filter, type Observable, Subject, type Subscription } from 'rxjs';
import { v7 as uuidv7 } from 'uuid';
import { contributionsTo } from '../common/contributions';
import { SWITCHBOARD_CONFIG } from '../config/config.module';
import type { SwitchboardConfig } from '../config/switchboard-config';
import { CopilotCliConnection } from '../copilot-cli/copilot-cli-connection';
import { EventStore } from '../event-store/event-store';
import type { StoredEvent } from '../event-store/event-store.types';
import { modelCallStreamId, parseStreamId, runThreadId, sessionIdOfStream } from '../event-store/stream-ids';
import { InstanceLease } from '../instances/instance-lease';
import { PauseHolds } from '../pauses/pause-holds';
import { SessionEvents } from '../sessions/session.events';
import { AnswerReader } from './answer-reader';
import {
  type ModelAnswerRecord,
  type ModelCallEvent,
  ModelCallEvents,
  type ModelCallLineage,
  type ModelCallStartedData,
  type ModelCost,
  type ModelRequestSummary,
  type ModelUsage,
} from './model-call.events';
import { MODEL_CALL_GATES, type ModelCallGate, type ModelCallRefusal } from './model-call-gate';
import { ModelCallLineages } from './model-call-lineages';
import { costOf, spentUsageOf } from './model-cost';
import { type ProviderAnswer, ProviderClient } from './provider-client';
import { ProviderTraffic } from './provider-traffic';
import { requestFactsOf, withOutputCap } from './request-summary';
import { recordedAnswerFrames } from './replay/recorded-answer';
import { type ReplayPlan, ReplayPlanner } from './replay/replay-planner';
import { pathForLedger, upstreamRequestOf, type WireHeaders } from './upstream-request';

/** `llmInference.httpRequestStart` as the CLI sends it (protocol 3). */
interface RequestStartFrame {
  requestId: string;
  sessionId?: string;
  method: string;
  url: string;
  headers: WireHeaders;
  agentId?: string;
  parentAgentId?: string;
  agentInvocationId?: string;
  interactionType?: string;
}

/** `llmInference.httpRequestChunk`: a piece of the body, the end of it, or the CLI cancelling the call. */
interface RequestChunkFrame {
  requestId: string;
  data?: string;
  binary?: boolean;
  end?: boolean;
  cancel?: boolean;
  cancelReason?: string;
}

const optionalText = (value: unknown): string | undefined => (typeof value === 'string' && value.length > 0 ? value : undefined);

/** The start frame's fields Switchboard relies on; undefined for a frame without a request id or URL (ignored). */
export function startFrameOf(params: Record<string, unknown>): RequestStartFrame | undefined {
  const { requestId, url } = params;
  if (typeof requestId !== 'string' || requestId.length === 0 || typeof url !== 'string') return undefined;
  const headers: WireHeaders = {};
  if (typeof params.headers === 'object' && params.headers !== null) {
    for (const [name, values] of Object.entries(params.headers as Record<string, unknown>)) {
      if (Array.isArray(values)) headers[name.toLowerCase()] = values.filter((v): v is string => typeof v === 'string');
      else if (typeof values === 'string') headers[name.toLowerCase()] = [values];
    }
  }
  const frame: RequestStartFrame = { requestId, url, method: optionalText(params.method) ?? 'POST', headers };
  for (const key of ['sessionId', 'agentId', 'parentAgentId', 'agentInvocationId', 'interactionType'] as const) {
    const value = optionalText(params[key]);
    if (value !== undefined) frame[key] = value;
  }
  return frame;
}

export function chunkFrameOf(params: Record<string, unknown>): RequestChunkFrame | undefined {
  const { requestId } = params;
  if (typeof requestId !== 'string' || requestId.length === 0) return undefined;
  return {
    requestId,
    ...(typeof params.data === 'string' ? { data: params.data } : {}),
    binary: params.binary === true,
    end: params.end === true,
    cancel: params.cancel === true,
    ...(typeof params.cancelReason === 'string' ? { cancelReason: params.cancelReason } : {}),
  };
}

/** One call the CLI handed over, from its first frame to the end of its answer. */
class Exchange {
  start?: RequestStartFrame;
  readonly body: string[] = [];
  bodyEnded = false;
  forwarding = false;
  readonly abort = new AbortController();
  /** Why it was aborted: the CLI cancelled it, or its session or run ended. */
  abortedBecause?: string;
  cancelledByCli = false;
  /** Set once its answer's end went to the CLI: resolved when that end is recorded (its usage counted). */
  recorded?: { done: Promise<void>; resolve: () => void };

  constructor(readonly requestId: string) {}
}

/** A call this instance forwarded or refused, as it ended: what the metrics count (never another instance's). */
export interface EndedModelCall {
  model: string;
  outcome: 'succeeded' | 'failed' | 'cancelled' | 'refused';
  ttfbMs?: number;
  durationMs?: number;
  usage: ModelUsage;
  cost?: ModelCost;
}

/**
 * How long a call's `model_call.started` may wait for its commit (and for company in it): past the request
 * going out and, for a model that answers at once, past the answer (`bench:model-calls`).
 */
const STARTED_COMMIT_DELAY_MS = 25;
/** Answer chunks sent to the CLI without waiting for their acknowledgement, at most this many at a time. */
const CHUNKS_IN_FLIGHT = 16;
/** What a refusal answers: a 400, on which the CLI's loop ends the turn showing the message (no retry). */
const REFUSAL_STATUS = 400;
/** Answer headers the CLI must not get: the framing is the CLI connection's, not the provider's. */
const NOT_RETURNED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

/**
 * issue 25: Switchboard as the only way to a model. The CLI, once it accepted `llmInference.setProvider`
 * (CopilotCliConnection), hands every model HTTP request here; each is resolved onto its lineage, asked
 * of the gates (budgets refuse before spending, or cap the output), forwarded to the configured provider
 * with Switchboard's key and streamed back chunk by chunk as it arrives, and kept as a `model_call-<id>`
 * stream: `model_call.started` (appended while the request goes out, never in its way), then one
 * `model_call.finished` / `failed` with the answer, its usage and cost. A CLI cancel, or the end of the
 * call's session, its turn or its run, aborts the upstream request.
 */
@Injectable()
export class ModelRoute implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(ModelRoute.name);
  private readonly exchanges = new Map<string, Exchange>();
  /** Per session: calls whose answer ended at the CLI but whose usage is not recorded yet. */
  private readonly unrecorded = new Map<string, Set<Exchange>>();
  private gates: ModelCallGate[] = [];
  private readonly provider = new ProviderClient();
  private endings?: Subscription;
  private readonly ended = new Subject<EndedModelCall>();
  /** Each call of a session this instance forwarded or refused, once it ended (recorded or not). */
  readonly ended$: Observable<EndedModelCall> = this.ended.asObservable();

  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly store: EventStore,
    private readonly lineages: ModelCallLineages,
    private readonly lease: InstanceLease,
    private readonly traffic: ProviderTraffic,
    private readonly discovery: DiscoveryService,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
    private readonly replays: ReplayPlanner,
    private readonly pauses: PauseHolds,
  ) {}

  onModuleInit(): void {
    this.gates = contributionsTo<ModelCallGate>(this.discovery, MODEL_CALL_GATES);
    this.cli.handleRequests('llmInference.httpRequestStart', (params) => Promise.resolve(this.onStart(startFrameOf(params))));
    this.cli.handleRequests('llmInference.httpRequestChunk', (params) => Promise.resolve(this.onChunk(chunkFrameOf(params))));
    this.endings = this.store.committed$
      .pipe(filter((event) => ENDING_TYPES.has(event.type)))
      .subscribe((event) => this.abortSession(endedSessionOf(event), `${event.type} was recorded`));
  }

  onModuleDestroy(): void {
    this.endings?.unsubscribe();
    for (const exchange of this.exchanges.values()) this.abortExchange(exchange, 'Switchboard is stopping');
    this.provider.close();
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
      this.abortExchange(exchange, `the Copilot CLI cancelled the call${frame.cancelReason ? `: ${frame.cancelReason}` : ''}`);
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
    void this.forward(exchange)
      .catch((error: unknown) => this.logger.error({ err: error, requestId: exchange.requestId }, 'model call could not be answered'))
      .finally(() => {
        this.exchanges.delete(exchange.requestId);
        this.recordedNow(exchange);
      });
  }

  private abortSession(sessionId: string | undefined, reason: string): void {
    if (!sessionId) return;
    for (const exchange of this.exchanges.values()) {
      if (exchange.start?.sessionId === sessionId) this.abortExchange(exchange, reason);
    }
  }

  private abortExchange(exchange: Exchange, reason: string): void {
    if (exchange.abort.signal.aborted) return;
    exchange.abortedBecause = reason;
    exchange.abort.abort(new Error(reason));
  }

  private async forward(exchange: Exchange): Promise<void> {
    const start = exchange.start as RequestStartFrame;
    const requestBody = exchange.body.join('');
    let received = performance.now();
    const upstream = upstreamRequestOf(this.config.cli, start);
    // Outside any session (the CLI's model catalog at start): forwarded, not a call of anyone's.
    if (!start.sessionId) {
      await this.answer(exchange, upstream, requestBody, received, undefined);
      return;
    }
    const facts = requestFactsOf(requestBody);
    const lineage = await this.lineages.of({ ...start, sessionId: start.sessionId });
    // issue 26: a paused subtree's call waits here, before any gate or the provider sees it.
    const holdStarted = performance.now();
    if (!(await this.pauses.waitWhilePaused(start.sessionId, exchange.abort.signal))) {
      if (!exchange.cancelledByCli)
        await this.endWithError(exchange.requestId, false, exchange.abortedBecause ?? 'its run or session ended while paused', 'cancelled');
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
    // issue 26: a replay's or fork's session is answered from the record where it can (replay/).
    const replay = await this.replays.plan(lineage, requestBody);
    if (replay && replay.kind !== 'live') {
      await this.answerFromRecord(exchange, callId, lineage, summary, replay, requestBody, received);
      // A played-back call reached no provider and spent nothing: only a refusal counts in the metrics.
      if (replay.kind === 'refuse') this.ended.next({ model: summary.model, outcome: 'refused', usage: {} });
      return;
    }
    if (replay && replay.body !== requestBody) {
      // A fork's changes (its message, an agent's model or prompt): the ledger says what was sent.
      const changed = requestFactsOf(replay.body);
      Object.assign(summary, { model: changed.model, requestBytes: Buffer.byteLength(replay.body), messageCount: changed.messageCount });
    }
    // The CLI sends its next call as soon as the last answer ended, maybe before that answer's usage was
    // recorded: the gates (budgets) must count it, so they wait for it (no wait when it is recorded already).
    const gates = this.gates.filter((gate) => gate.applies(lineage));
    if (gates.length > 0) await this.previousAnswersRecorded(start.sessionId);
    const admission = await this.admit(gates, lineage, facts.model);
    if ('refuse' in admission) {
      await this.refuse(exchange, callId, lineage, summary, admission.refuse);
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
    const content = this.kept(body);
    const started: ModelCallStartedData = {
      callId,
      requestId: exchange.requestId,
      ...lineage,
      ...summary,
      ...(content ? { request: content.text, ...(content.truncated ? { requestTruncated: true } : {}) } : {}),
      instanceId: this.lease.instanceId,
      ...(replay ? { replay: replay.replay } : {}),
    };
    // Recorded while the request goes out, its commit a little later: a SQLite commit holds the event loop
    // for its fsync, which must not fall between the request and its first answer chunk.
    // A call a budget may decide on is committed at once: the session's next call waits for its record.
    const commitDelay = gates.length > 0 ? 0 : STARTED_COMMIT_DELAY_MS;
    const recordedStart = this.append(callId, 'no_stream', { type: ModelCallEvents.started, data: started }, start.sessionId, commitDelay);
    const outcome = await this.answer(exchange, upstream, body, received, summary.model);
    const ended = this.endEvent(callId, lineage, outcome, summary.model, exchange);
    this.ended.next(endedCallOf(summary.model, ended));
    await recordedStart.then(
      (ok) => (ok ? this.append(callId, 1, ended, start.sessionId as string) : undefined),
      () => undefined,
    );
  }

  /**
   * issue 26: a replay's call answered without the model: the original's answer played back (recorded as
   * started and finished, with the recorded usage and no cost), or, at a divergence the replay stops on,
   * refused with a 400 whose message the CLI's turn ends on (`limit: 'replay_divergence'`).
   */
  private async answerFromRecord(
    exchange: Exchange,
    callId: string,
    lineage: ModelCallLineage,
    summary: ModelRequestSummary,
    plan: Exclude<ReplayPlan, { kind: 'live' }>,
    requestBody: string,
    received: number,
  ): Promise<void> {
    const { requestId } = exchange;
    const sessionId = lineage.sessionId;
    if (plan.kind === 'refuse') {
      this.logger.warn({ callId, sessionId, runId: lineage.runId, divergence: plan.replay.divergence?.part }, 'replay stopped at a divergence');
      const refused = { limit: 'replay_divergence', used: 0, max: 0, message: plan.message, replay: plan.replay };
      const recorded = this.append(
        callId,
        'no_stream',
        { type: ModelCallEvents.refused, data: { callId, requestId, ...lineage, ...summary, ...refused, instanceId: this.lease.instanceId } },
        sessionId,
      );
      const body = JSON.stringify({ error: { message: plan.message, type: 'invalid_request_error', code: 'switchboard_replay_diverged' } });
      await this.send('llmInference.httpResponseStart', { requestId, status: REFUSAL_STATUS, headers: { 'content-type': ['application/json'] } });
      await this.send('llmInference.httpResponseChunk', { requestId, data: body, end: true });
      await recorded;
      return;
    }
    const content = this.kept(requestBody);
    const started: ModelCallStartedData = {
      callId,
      requestId,
      ...lineage,
      ...summary,
      ...(content ? { request: content.text, ...(content.truncated ? { requestTruncated: true } : {}) } : {}),
      instanceId: this.lease.instanceId,
      replay: plan.replay,
    };
    const recordedStart = this.append(callId, 'no_stream', { type: ModelCallEvents.started, data: started }, sessionId, STARTED_COMMIT_DELAY_MS);
    const frames = recordedAnswerFrames(plan.original);
    const ttfbMs = Math.round(performance.now() - received);
    // One frame after the other: sent at once, a chunk can reach the CLI's handler before its head and be
    // refused (`accepted: false`), and the CLI then retries the call (a provider's latency hides this live).
    await this.send('llmInference.httpResponseStart', { requestId, status: frames.status, headers: frames.headers });
    for (const chunk of frames.chunks) await this.send('llmInference.httpResponseChunk', { requestId, data: chunk, end: false });
    this.endingAnswer(exchange);
    await this.send('llmInference.httpResponseChunk', { requestId, data: '', end: true });
    const answer = plan.original.answer ?? '';
    const kept = this.kept(answer);
    const { usage, responseId, finishReason } = plan.original;
    const finished: ModelCallEvent = {
      type: ModelCallEvents.finished,
      data: {
        callId,
        sessionId,
        ...(lineage.runId ? { runId: lineage.runId } : {}),
        status: frames.status,
        ttfbMs,
        durationMs: Math.round(performance.now() - received),
        usage,
        ...(responseId ? { responseId } : {}),
        ...(finishReason ? { finishReason } : {}),
        answerBytes: Buffer.byteLength(answer),
        chunks: frames.chunks.length,
        ...(kept ? { answer: kept.text, ...(kept.truncated ? { answerTruncated: true } : {}) } : {}),
      },
    };
    await recordedStart.then(
      (ok) => (ok ? this.append(callId, 1, finished, sessionId) : undefined),
      () => undefined,
    );
  }

  /** Called just before an answer's end goes to the CLI: from then on its session's next call waits for its record. */
  private endingAnswer(exchange: Exchange): void {
    const sessionId = exchange.start?.sessionId;
    if (!sessionId || exchange.recorded || this.gates.length === 0) return;
    let resolve!: () => void;
    const done = new Promise<void>((r) => (resolve = r));
    exchange.recorded = { done, resolve };
    let pending = this.unrecorded.get(sessionId);
    if (!pending) this.unrecorded.set(sessionId, (pending = new Set()));
    pending.add(exchange);
  }

  private recordedNow(exchange: Exchange): void {
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

  /** The first refusal of any gate, else the lowest output cap any of them asked for. */
  private async admit(
    gates: readonly ModelCallGate[],
    lineage: ModelCallLineage,
    model: string,
  ): Promise<{ refuse: ModelCallRefusal } | { outputCap?: number }> {
    let outputCap: number | undefined;
    for (const gate of gates) {
      const admission = await gate.admit({ ...lineage, model });
      if (!admission) continue;
      if ('refuse' in admission) return admission;
      outputCap = outputCap === undefined ? admission.outputCap : Math.min(outputCap, admission.outputCap);
    }
    return { outputCap };
  }

  private async refuse(
    exchange: Exchange,
    callId: string,
    lineage: ModelCallLineage,
    summary: ModelRequestSummary,
    refusal: ModelCallRefusal,
  ): Promise<void> {
    this.logger.warn(
      { callId, sessionId: lineage.sessionId, runId: lineage.runId, limit: refusal.limit },
      'model call refused: a budget over it is spent',
    );
    const recorded = this.append(
      callId,
      'no_stream',
      {
        type: ModelCallEvents.refused,
        data: { callId, requestId: exchange.requestId, ...lineage, ...summary, ...refusal, instanceId: this.lease.instanceId },
      },
      lineage.sessionId,
    );
    const body = JSON.stringify({ error: { message: refusal.message, type: 'invalid_request_error', code: 'switchboard_budget_exhausted' } });
    await this.send('llmInference.httpResponseStart', {
      requestId: exchange.requestId,
      status: REFUSAL_STATUS,
      headers: { 'content-type': ['application/json'] },
    });
    await this.send('llmInference.httpResponseChunk', { requestId: exchange.requestId, data: body, end: true });
    await recorded;
  }

  /**
   * Sends the request upstream and streams the answer back as it comes; returns what the ledger keeps.
   * A transport failure is answered as one (the CLI retries it as designed); an abort ends the answer.
   */
  private async answer(
    exchange: Exchange,
    upstream: ReturnType<typeof upstreamRequestOf>,
    body: string,
    received: number,
    model: string | undefined,
  ): Promise<CallOutcome> {
    const { requestId } = exchange;
    let response: ProviderAnswer;
    try {
      response = await this.provider.send(upstream, body, exchange.abort.signal);
    } catch (error) {
      const durationMs = Math.round(performance.now() - received);
      const message = exchange.abortedBecause ?? `the model provider could not be reached: ${causeOf(error)}`;
      // A call the CLI or a stop cancelled says nothing of the provider.
      if (model !== undefined && !exchange.abortedBecause) this.traffic.failed(model, durationMs, undefined, message);
      this.endingAnswer(exchange);
      if (!exchange.cancelledByCli) await this.endWithError(requestId, false, message, exchange.abortedBecause ? 'cancelled' : 'upstream_unreachable');
      return { kind: exchange.abortedBecause ? 'cancelled' : 'failed', error: message, durationMs, chunks: 0, answerBytes: 0 };
    }
    const ttfbMs = Math.round(performance.now() - received);
    const headers: WireHeaders = {};
    for (const [name, values] of Object.entries(response.headers)) {
      if (!NOT_RETURNED.has(name)) headers[name] = values;
    }
    const reader = new AnswerReader(response.contentType);
    const kept = new KeptText(this.config.modelCalls.content === 'full' ? this.config.modelCalls.contentMaxBytes : 0);
    const decoder = new TextDecoder();
    // The head and the chunks go out in order without waiting for each acknowledgement; a bounded window keeps a slow CLI in step.
    const pending: Promise<unknown>[] = [
      this.send('llmInference.httpResponseStart', { requestId, status: response.status, statusText: response.statusText, headers }),
    ];
    let chunks = 0;
    let answerBytes = 0;
    let streamError: string | undefined;
    try {
      for await (const bytes of response.body) {
        const text = decoder.decode(bytes, { stream: true });
        chunks += 1;
        answerBytes += bytes.byteLength;
        reader.push(text);
        kept.push(text);
        pending.push(this.send('llmInference.httpResponseChunk', { requestId, data: text, end: false }));
        if (pending.length >= CHUNKS_IN_FLIGHT) await Promise.all(pending.splice(0));
      }
      const tail = decoder.decode();
      if (tail) {
        reader.push(tail);
        kept.push(tail);
      }
      await Promise.all(pending.splice(0));
      this.endingAnswer(exchange);
      await this.send('llmInference.httpResponseChunk', { requestId, data: tail, end: true });
    } catch (error) {
      await Promise.all(pending.splice(0));
      streamError = exchange.abortedBecause ?? `the model provider's answer broke off: ${causeOf(error)}`;
      this.endingAnswer(exchange);
      if (!exchange.cancelledByCli) await this.endWithError(requestId, true, streamError, exchange.abortedBecause ? 'cancelled' : 'upstream_broken');
    }
    const durationMs = Math.round(performance.now() - received);
    const facts = reader.end();
    const ok = response.status < 400 && streamError === undefined;
    if (model !== undefined && !exchange.abortedBecause) {
      if (providerAnswered(response.status, streamError)) this.traffic.succeeded(model, durationMs, ttfbMs);
      else
        this.traffic.failed(
          model,
          durationMs,
          response.status,
          streamError ?? `the model provider answered ${response.status}${errorTextOf(kept.text())}`,
        );
    }
    const record: ModelAnswerRecord = {
      status: response.status,
      ttfbMs,
      durationMs,
      usage: facts.usage,
      ...(facts.responseId ? { responseId: facts.responseId } : {}),
      ...(facts.finishReason ? { finishReason: facts.finishReason } : {}),
      answerBytes,
      chunks,
      ...(kept.enabled ? { answer: kept.text(), ...(kept.truncated ? { answerTruncated: true } : {}) } : {}),
    };
    if (ok) return { kind: 'finished', record };
    const error = streamError ?? `the model provider answered ${response.status}${errorTextOf(kept.text())}`;
    return { kind: exchange.abortedBecause ? 'cancelled' : 'failed', error, durationMs, record, chunks, answerBytes };
  }

  private endEvent(callId: string, lineage: ModelCallLineage, outcome: CallOutcome, model: string, exchange: Exchange): ModelCallEvent {
    const base = { callId, sessionId: lineage.sessionId, ...(lineage.runId ? { runId: lineage.runId } : {}) };
    if (outcome.kind === 'finished') {
      const cost = costOf(this.config.modelCalls.prices, model, outcome.record.usage);
      return { type: ModelCallEvents.finished, data: { ...base, ...outcome.record, ...(cost ? { cost } : {}) } };
    }
    const cost = costOf(this.config.modelCalls.prices, model, spentUsageOf(outcome.record));
    if (exchange.abortedBecause) this.logger.debug({ callId, reason: exchange.abortedBecause }, 'model call aborted');
    return {
      type: ModelCallEvents.failed,
      data: {
        ...base,
        ...(outcome.record ?? { answerBytes: outcome.answerBytes, chunks: outcome.chunks }),
        durationMs: outcome.durationMs,
        outcome: outcome.kind,
        error: outcome.error,
        ...(cost ? { cost } : {}),
      },
    };
  }

  /** Ends an answer with a transport failure, as the CLI's loop expects one: a 502 head when none was sent. */
  private async endWithError(requestId: string, started: boolean, message: string, code: string): Promise<void> {
    if (!started) await this.send('llmInference.httpResponseStart', { requestId, status: 502, headers: {} });
    await this.send('llmInference.httpResponseChunk', { requestId, data: '', end: true, error: { message, code } });
  }

  /** A frame to the CLI; one that cannot be delivered (the CLI went away) is logged, never thrown into the forwarding. */
  private send(method: string, params: Record<string, unknown>): Promise<unknown> {
    return this.cli.request(method, params).catch((error: unknown) => {
      this.logger.debug({ err: error, method, requestId: params.requestId }, 'could not deliver a model answer frame to the Copilot CLI');
    });
  }

  /** Appends one event of a call; false when it could not be recorded (logged: the call itself went on). */
  private async append(callId: string, expectedVersion: 'no_stream' | number, event: ModelCallEvent, sessionId: string, maxDelayMs = 0): Promise<boolean> {
    try {
      await this.store.append(
        modelCallStreamId(callId),
        expectedVersion,
        [{ type: event.type, data: { ...event.data }, metadata: { actor: 'switchboard', correlationId: sessionId, by: SYSTEM_ACTOR } }],
        { maxDelayMs },
      );
      return true;
    } catch (error) {
      this.logger.error({ err: error, callId, type: event.type }, 'could not record a model call');
      return false;
    }
  }

  private kept(text: string): { text: string; truncated: boolean } | undefined {
    if (this.config.modelCalls.content !== 'full') return undefined;
    const kept = new KeptText(this.config.modelCalls.contentMaxBytes);
    kept.push(text);
    return { text: kept.text(), truncated: kept.truncated };
  }
}

type CallOutcome =
  | { kind: 'finished'; record: ModelAnswerRecord }
  | { kind: 'failed' | 'cancelled'; error: string; durationMs: number; record?: ModelAnswerRecord; chunks: number; answerBytes: number };

function endedCallOf(model: string, event: ModelCallEvent): EndedModelCall {
  if (event.type === ModelCallEvents.finished) {
    const { ttfbMs, durationMs, usage, cost } = event.data;
    return { model, outcome: 'succeeded', ...(ttfbMs !== undefined ? { ttfbMs } : {}), durationMs, usage, ...(cost ? { cost } : {}) };
  }
  if (event.type === ModelCallEvents.failed) {
    const { ttfbMs, durationMs, usage, cost, outcome } = event.data;
    return { model, outcome, ...(ttfbMs !== undefined ? { ttfbMs } : {}), durationMs, usage: usage ?? {}, ...(cost ? { cost } : {}) };
  }
  return { model, outcome: 'failed', usage: {} };
}

/** Text kept up to a byte limit (0: nothing kept), marked truncated past it. */
class KeptText {
  private readonly parts: string[] = [];
  private bytes = 0;
  truncated = false;

  constructor(private readonly maxBytes: number) {}

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  push(text: string): void {
    if (!this.enabled || this.truncated) return;
    const size = Buffer.byteLength(text);
    if (this.bytes + size <= this.maxBytes) {
      this.parts.push(text);
      this.bytes += size;
      return;
    }
    const room = this.maxBytes - this.bytes;
    this.parts.push(
      Buffer.from(text)
        .subarray(0, room)
        .toString('utf8')
        .replace(/\uFFFD$/, ''),
    );
    this.bytes = this.maxBytes;
    this.truncated = true;
  }

  text(): string {
    return this.parts.join('');
  }
}

/**
 * Events after which a session's calls in flight have nobody to answer: its end, its CLI's loss, a stop
 * of its turn or of its run (`run.stopped` by name: delegation sits above this context).
 */
const ENDING_TYPES = new Set<string>([SessionEvents.destroyed, SessionEvents.interrupted, SessionEvents.abortRequested, 'run.stopped']);

function endedSessionOf(event: StoredEvent): string | undefined {
  const stream = parseStreamId(event.streamId);
  if (stream?.kind === 'run') return runThreadId(stream.id);
  return sessionIdOfStream(event.streamId);
}

/**
 * Whether an answer shows a working provider. A refusal of one request (a 400, a 404 for an unknown
 * model) says nothing of the provider's health; a refused key (401, 403), a 429, a 5xx or a broken
 * answer does.
 */
export function providerAnswered(status: number, streamError: string | undefined): boolean {
  if (streamError !== undefined) return false;
  return status < 400 || (status < 500 && status !== 401 && status !== 403 && status !== 429);
}

/** A socket error's code (ECONNREFUSED, ECONNRESET, ...) with its message, or the error's message. */
function causeOf(error: unknown): string {
  const { code, message, cause } = error as { code?: string; message?: string; cause?: { message?: string; code?: string } };
  if (code && message && !message.includes(code)) return `${code}: ${message}`;
  return message ?? cause?.code ?? cause?.message ?? String(error);
}

/** A short quote of a provider's error answer, for the ledger's `error`. */
function errorTextOf(answer: string): string {
  const text = answer.trim().slice(0, 300);
  return text ? `: ${text}` : '';
}
