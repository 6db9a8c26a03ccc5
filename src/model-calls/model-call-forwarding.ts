import { Inject, Injectable, Logger } from '@nestjs/common';
import { SWITCHBOARD_CONFIG, type SwitchboardConfig } from '../config';
import { CopilotCliConnection } from '../copilot-cli';
import { AnswerReader } from './answer-reader';
import { KeptText } from './kept-text';
import type { ModelAnswerRecord, ModelUsage } from './model-call.events';
import { spentUsageOf } from './model-cost';
import type { Exchange } from './model-exchange';
import { type ProviderAnswer, ProviderClient } from './provider-client';
import { ProviderTraffic } from './provider-traffic';
import type { RecordedAnswerFrames } from './replay/recorded-answer';
import type { upstreamRequestOf, WireHeaders } from './upstream-request';

/** Answer chunks sent to the CLI without waiting for their acknowledgement, at most this many at a time. */
const CHUNKS_IN_FLIGHT = 16;
/** What a refusal answers: a 400, on which the CLI's loop ends the turn showing the message (no retry). */
const REFUSAL_STATUS = 400;
/** Answer headers the CLI must not get: the framing is the CLI connection's, not the provider's. */
const NOT_RETURNED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

/** How a forwarded call ended, with what the ledger keeps of its answer. */
export type CallOutcome =
  | { kind: 'finished'; record: ModelAnswerRecord }
  | { kind: 'failed' | 'cancelled'; error: string; durationMs: number; record?: ModelAnswerRecord; chunks: number; answerBytes: number };

/**
 * The forwarding of a call: its request to the provider and the answer streamed back to the CLI frame by
 * frame (`llmInference.httpResponseStart` / `httpResponseChunk`), or a refusal or a recorded answer in
 * the same frames. Records nothing: it says how the call ended (`CallOutcome`).
 */
@Injectable()
export class ModelCallForwarding {
  private readonly logger = new Logger(ModelCallForwarding.name);
  private readonly provider = new ProviderClient();

  constructor(
    private readonly cli: CopilotCliConnection,
    private readonly traffic: ProviderTraffic,
    @Inject(SWITCHBOARD_CONFIG) private readonly config: SwitchboardConfig,
  ) {}

  close(): void {
    this.provider.close();
  }

  /**
   * Sends the request upstream and streams the answer back as it comes; returns what the ledger keeps.
   * A transport failure is answered as one (the CLI retries it as designed); an abort ends the answer.
   * `beforeEnd` runs just before the answer's end goes to the CLI, with what the call spent (`spentUsageOf`).
   */
  async answer(
    exchange: Exchange,
    upstream: ReturnType<typeof upstreamRequestOf>,
    body: string,
    received: number,
    model: string | undefined,
    beforeEnd?: (spent: ModelUsage | null) => void,
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
      beforeEnd?.(null);
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
    let facts: ReturnType<AnswerReader['end']> | undefined;
    // What the answer spent, read before its end goes to the CLI: the gates count it for the session's next call.
    const spent = () => spentUsageOf({ status: response.status, usage: (facts ??= reader.end()).usage });
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
      beforeEnd?.(spent());
      await this.send('llmInference.httpResponseChunk', { requestId, data: tail, end: true });
    } catch (error) {
      await Promise.all(pending.splice(0));
      streamError = exchange.abortedBecause ?? `the model provider's answer broke off: ${causeOf(error)}`;
      beforeEnd?.(spent());
      if (!exchange.cancelledByCli) await this.endWithError(requestId, true, streamError, exchange.abortedBecause ? 'cancelled' : 'upstream_broken');
    }
    const durationMs = Math.round(performance.now() - received);
    facts ??= reader.end();
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

  /** A call not sent: a 400 whose message the CLI's turn ends on (`code`: why, for the CLI's log). */
  async refuse(requestId: string, message: string, code: string): Promise<void> {
    const body = JSON.stringify({ error: { message, type: 'invalid_request_error', code } });
    await this.send('llmInference.httpResponseStart', { requestId, status: REFUSAL_STATUS, headers: { 'content-type': ['application/json'] } });
    await this.send('llmInference.httpResponseChunk', { requestId, data: body, end: true });
  }

  /** A recorded answer played back: nothing reached the model, nothing was spent (no gate is told of it). */
  async playBack(requestId: string, frames: RecordedAnswerFrames): Promise<void> {
    // One frame after the other: sent at once, a chunk can reach the CLI's handler before its head and be
    // refused (`accepted: false`), and the CLI then retries the call (a provider's latency hides this live).
    await this.send('llmInference.httpResponseStart', { requestId, status: frames.status, headers: frames.headers });
    for (const chunk of frames.chunks) await this.send('llmInference.httpResponseChunk', { requestId, data: chunk, end: false });
    await this.send('llmInference.httpResponseChunk', { requestId, data: '', end: true });
  }

  /** Ends an answer with a transport failure, as the CLI's loop expects one: a 502 head when none was sent. */
  async endWithError(requestId: string, started: boolean, message: string, code: string): Promise<void> {
    if (!started) await this.send('llmInference.httpResponseStart', { requestId, status: 502, headers: {} });
    await this.send('llmInference.httpResponseChunk', { requestId, data: '', end: true, error: { message, code } });
  }

  /** A frame to the CLI; one that cannot be delivered (the CLI went away) is logged, never thrown into the forwarding. */
  private send(method: string, params: Record<string, unknown>): Promise<unknown> {
    return this.cli.request(method, params).catch((error: unknown) => {
      this.logger.debug({ err: error, method, requestId: params.requestId }, 'could not deliver a model answer frame to the Copilot CLI');
    });
  }
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
