import type { ModelUsage } from './model-call.events';

/** What the ledger keeps of an answer, read off it as it streams past. */
export interface AnswerFacts {
  usage: ModelUsage;
  responseId?: string;
  finishReason?: string;
}

/** Statuses of a responses-API answer that is still being made. */
const UNFINISHED_RESPONSE = new Set(['queued', 'in_progress']);

/** A line of an SSE stream is at most this long before it is given up on (one huge `data:` line is no usage line). */
const MAX_LINE_CHARS = 4 * 1024 * 1024;

/**
 * Reads usage, the answer's id and the finish reason off a model answer as its chunks pass through,
 * without holding the answer: a server-sent-event stream is read line by line, a JSON answer is
 * parsed once at the end. Speaks the three answer shapes the CLI asks for: OpenAI chat completions
 * (and Azure's), OpenAI responses, and Anthropic messages.
 */
export class AnswerReader {
  private readonly facts: AnswerFacts = { usage: {} };
  private readonly streamed: boolean;
  private partial = '';
  private json = '';
  private jsonTooBig = false;

  constructor(
    contentType: string | undefined,
    private readonly maxJsonChars = MAX_LINE_CHARS,
  ) {
    this.streamed = (contentType ?? '').includes('text/event-stream');
  }

  push(text: string): void {
    if (!this.streamed) {
      if (this.json.length + text.length > this.maxJsonChars) this.jsonTooBig = true;
      else this.json += text;
      return;
    }
    const lines = (this.partial + text).split('\n');
    this.partial = lines.pop() ?? '';
    if (this.partial.length > MAX_LINE_CHARS) this.partial = '';
    for (const line of lines) this.line(line);
  }

  end(): AnswerFacts {
    if (this.streamed) {
      if (this.partial) this.line(this.partial);
      this.partial = '';
    } else if (!this.jsonTooBig && this.json) {
      this.object(parse(this.json));
    }
    return this.facts;
  }

  private line(raw: string): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (!line.startsWith('data:')) return;
    const payload = line.slice(5).trim();
    if (!payload || payload === '[DONE]') return;
    this.object(parse(payload));
  }

  private object(value: unknown): void {
    if (!isRecord(value)) return;
    const f = this.facts;
    // Anthropic messages: message_start carries the id and input usage, message_delta the rest.
    if (value.type === 'message_start' && isRecord(value.message)) return this.object(value.message);
    if (value.type === 'message_delta') {
      if (isRecord(value.delta) && typeof value.delta.stop_reason === 'string') f.finishReason = value.delta.stop_reason;
      if (isRecord(value.usage)) this.usage(value.usage);
      return;
    }
    // OpenAI responses: the completed (or incomplete, or failed) response holds everything.
    if (typeof value.type === 'string' && value.type.startsWith('response.') && isRecord(value.response)) {
      return this.object({ ...value.response, object: 'response' });
    }
    if (typeof value.id === 'string' && !f.responseId) f.responseId = value.id;
    if (typeof value.stop_reason === 'string') f.finishReason = value.stop_reason;
    // A responses answer says how it ended in its status; `queued` and `in_progress` are not an end.
    if (value.object === 'response' && typeof value.status === 'string' && !UNFINISHED_RESPONSE.has(value.status)) f.finishReason = value.status;
    if (Array.isArray(value.choices)) {
      for (const choice of value.choices) {
        if (isRecord(choice) && typeof choice.finish_reason === 'string') f.finishReason = choice.finish_reason;
      }
    }
    if (isRecord(value.usage)) this.usage(value.usage);
  }

  /**
   * Chat completions (`prompt_tokens`…), responses and Anthropic (`input_tokens`…) name the same counts
   * differently. OpenAI's input count includes the cached part; Anthropic's `input_tokens` is only what
   * was neither read from nor written to the cache, so its cache counts are added back: the ledger's
   * `inputTokens` is always the whole input, `cachedInputTokens` a part of it.
   */
  private usage(u: Record<string, unknown>): void {
    const usage = this.facts.usage;
    const cacheRead = num(u.cache_read_input_tokens);
    const cacheWritten = num(u.cache_creation_input_tokens);
    const uncachedInput = num(u.input_tokens);
    const anthropicInput =
      uncachedInput !== undefined && (cacheRead !== undefined || cacheWritten !== undefined)
        ? uncachedInput + (cacheRead ?? 0) + (cacheWritten ?? 0)
        : uncachedInput;
    const input = num(u.prompt_tokens) ?? anthropicInput;
    const output = num(u.completion_tokens) ?? num(u.output_tokens);
    const cached =
      num(isRecord(u.prompt_tokens_details) ? u.prompt_tokens_details.cached_tokens : undefined) ??
      num(isRecord(u.input_tokens_details) ? u.input_tokens_details.cached_tokens : undefined) ??
      cacheRead;
    const reasoning =
      num(isRecord(u.completion_tokens_details) ? u.completion_tokens_details.reasoning_tokens : undefined) ??
      num(isRecord(u.output_tokens_details) ? u.output_tokens_details.reasoning_tokens : undefined);
    if (input !== undefined) usage.inputTokens = input;
    if (output !== undefined) usage.outputTokens = output;
    if (cached !== undefined) usage.cachedInputTokens = cached;
    if (reasoning !== undefined) usage.reasoningTokens = reasoning;
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}
