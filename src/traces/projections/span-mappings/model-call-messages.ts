import { isRecord, num, str } from './span-building';

/**
 * issue 28: a model call's request and answer bodies as GenAI semconv messages (recorded only with
 * `SWITCHBOARD_MODEL_CONTENT=full`; put on spans only with `SWITCHBOARD_TRACE_CONTENT`). The bodies are
 * the provider's (OpenAI chat shape), never trusted: what is not that shape says nothing.
 */

type Data = Record<string, unknown>;

function record(value: unknown): Data {
  return isRecord(value) ? value : {};
}

/** The request's chat messages (OpenAI chat shape) as GenAI semconv input messages; undefined when it is not that shape. */
export function inputMessagesOfRequest(request: string | undefined): string | undefined {
  if (!request) return undefined;
  let body: unknown;
  try {
    body = JSON.parse(request);
  } catch {
    return undefined;
  }
  const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages : undefined;
  if (!messages) return undefined;
  return JSON.stringify(
    messages.filter(isRecord).map((message) => {
      const parts: Data[] = [];
      const content = message.content;
      if (typeof content === 'string') parts.push({ type: 'text', content });
      else if (Array.isArray(content))
        for (const part of content.filter(isRecord)) if (typeof part.text === 'string') parts.push({ type: 'text', content: part.text });
      if (Array.isArray(message.tool_calls)) {
        for (const call of message.tool_calls.filter(isRecord)) {
          const fn = record(call.function);
          parts.push({ type: 'tool_call', id: call.id, name: fn.name, arguments: fn.arguments });
        }
      }
      if (message.role === 'tool') return { role: 'tool', parts: [{ type: 'tool_call_response', id: message.tool_call_id, response: content }] };
      return { role: str(message.role) ?? 'user', parts };
    }),
  );
}

/** The answer (a JSON chat completion, or its SSE chunks) as GenAI semconv output messages. */
export function outputMessagesOfAnswer(answer: string | undefined, finishReason: string | undefined): string | undefined {
  if (!answer) return undefined;
  const bodies: Data[] = [];
  const lines = answer.trimStart().startsWith('{')
    ? [answer]
    : answer
        .split('\n')
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim());
  for (const line of lines) {
    if (line === '[DONE]') continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (isRecord(parsed)) bodies.push(parsed);
    } catch {
      // a chunk cut by the size limit: the rest still says something
    }
  }
  let text = '';
  const calls = new Map<number, { id?: unknown; name: string; arguments: string }>();
  for (const body of bodies) {
    for (const choice of Array.isArray(body.choices) ? body.choices.filter(isRecord) : []) {
      const message = record(choice.message ?? choice.delta);
      if (typeof message.content === 'string') text += message.content;
      for (const call of Array.isArray(message.tool_calls) ? message.tool_calls.filter(isRecord) : []) {
        const index = num(call.index) ?? calls.size;
        const fn = record(call.function);
        const known = calls.get(index) ?? { id: call.id, name: '', arguments: '' };
        if (call.id !== undefined) known.id = call.id;
        if (typeof fn.name === 'string') known.name += fn.name;
        if (typeof fn.arguments === 'string') known.arguments += fn.arguments;
        calls.set(index, known);
      }
    }
  }
  if (bodies.length === 0) return undefined;
  const parts: Data[] = [];
  if (text) parts.push({ type: 'text', content: text });
  for (const call of calls.values()) parts.push({ type: 'tool_call', id: call.id, name: call.name, arguments: call.arguments });
  return JSON.stringify([{ role: 'assistant', parts, ...(finishReason ? { finish_reason: finishReason } : {}) }]);
}

export function responseModelOf(answer: string | undefined): string | undefined {
  return answer ? /"model"\s*:\s*"([^"]+)"/.exec(answer)?.[1] : undefined;
}
