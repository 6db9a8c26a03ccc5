/** What the ledger reads off a request body once; the body itself is kept only in full content mode. */
export interface RequestFacts {
  model: string;
  messageCount: number;
  toolCount: number;
  stream: boolean;
  maxOutputTokens?: number;
}

/** The output-cap fields of the three request shapes: chat completions (old and new name), responses, Anthropic. */
const OUTPUT_CAPS = ['max_completion_tokens', 'max_tokens', 'max_output_tokens'] as const;

export function requestFactsOf(body: string): RequestFacts {
  const value = parseObject(body);
  if (!value) return { model: 'unknown', messageCount: 0, toolCount: 0, stream: false };
  // A responses request's `input` is a list of items, or one string (one user message).
  const messages = Array.isArray(value.messages)
    ? value.messages.length
    : Array.isArray(value.input)
      ? value.input.length
      : typeof value.input === 'string'
        ? 1
        : 0;
  const cap = OUTPUT_CAPS.map((k) => value[k]).find((v): v is number => typeof v === 'number');
  return {
    model: typeof value.model === 'string' ? value.model : 'unknown',
    messageCount: messages,
    toolCount: Array.isArray(value.tools) ? value.tools.length : 0,
    stream: value.stream === true,
    ...(cap !== undefined ? { maxOutputTokens: cap } : {}),
  };
}

/**
 * The body with its output cap lowered to `cap` (a budget's tokens left): the field the request already
 * uses, else the one its shape reads: `max_output_tokens` for responses, `max_tokens` for Anthropic (and
 * GitHub's endpoint), `max_completion_tokens` for OpenAI and Azure chat completions, whose reasoning
 * models refuse `max_tokens` with a 400. A cap the request already keeps under is left alone.
 * Undefined: not JSON.
 */
export function withOutputCap(body: string, cap: number, provider: string, path: string): string | undefined {
  const value = parseObject(body);
  if (!value) return undefined;
  const field =
    OUTPUT_CAPS.find((k) => typeof value[k] === 'number') ??
    (path.includes('/responses') ? 'max_output_tokens' : provider === 'openai' || provider === 'azure' ? 'max_completion_tokens' : 'max_tokens');
  const current = value[field];
  if (typeof current === 'number' && current <= cap) return body;
  return JSON.stringify({ ...value, [field]: Math.max(1, Math.floor(cap)) });
}

export const isJsonObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A request body read as a JSON object; undefined for anything else (not JSON, or an array or a value). */
export function parseObject(body: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(body);
    return isJsonObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
