// A model call's kept request and answer (Query.modelCall), read for a person: the request as the list
// of messages it sent, the answer as the text (and tool calls) the model wrote. The service keeps both
// bodies as the provider saw them, in the three shapes the CLI speaks: OpenAI chat completions (and
// Azure's), OpenAI responses and Anthropic messages; a streamed answer is its server-sent events.
// Pure: anything it cannot read (a truncated body, another shape) is undefined, and the view shows the raw text.

export interface ToolCallText {
  name: string;
  /** The arguments as the model wrote them (JSON text, usually). */
  arguments: string;
}

export interface ReadableMessage {
  /** system, developer, user, assistant, tool… as the request says. */
  role: string;
  text: string;
  /** Tools the assistant called in this message. */
  toolCalls: ToolCallText[];
  /** A tool result answers this call id. */
  toolCallId?: string;
}

export interface ReadableRequest {
  messages: ReadableMessage[];
  /** The tools offered to the model, by name. */
  tools: string[];
}

export interface ReadableAnswer {
  text: string;
  toolCalls: ToolCallText[];
}

type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const argumentText = (value: unknown): string => (typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value));

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The text parts of a content field: a string, or an array of parts (text, input_text, output_text…). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isRecord(part)) return '';
      if (typeof part.text === 'string') return part.text;
      if (part.type === 'tool_result') return contentText(part.content);
      if (part.type === 'image_url' || part.type === 'input_image' || part.type === 'image') return '[image]';
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
}

function chatToolCalls(value: unknown): ToolCallText[] {
  if (!Array.isArray(value)) return [];
  return value.filter(isRecord).map((call) => {
    const fn = isRecord(call.function) ? call.function : {};
    return { name: str(fn.name) ?? 'tool', arguments: argumentText(fn.arguments) };
  });
}

/** Anthropic: tool_use parts are calls; a tool_result part answers one. */
function anthropicMessage(message: Json): ReadableMessage {
  const parts = Array.isArray(message.content) ? message.content.filter(isRecord) : [];
  const toolCalls = parts.filter((p) => p.type === 'tool_use').map((p) => ({ name: str(p.name) ?? 'tool', arguments: argumentText(p.input) }));
  const result = parts.find((p) => p.type === 'tool_result');
  return {
    role: result ? 'tool' : (str(message.role) ?? 'user'),
    text: contentText(message.content),
    toolCalls,
    ...(result && str(result.tool_use_id) ? { toolCallId: str(result.tool_use_id) } : {}),
  };
}

/** OpenAI responses: `input` items are messages, function calls and their outputs. */
function responsesItem(item: unknown): ReadableMessage | undefined {
  if (typeof item === 'string') return { role: 'user', text: item, toolCalls: [] };
  if (!isRecord(item)) return undefined;
  if (item.type === 'function_call')
    return { role: 'assistant', text: '', toolCalls: [{ name: str(item.name) ?? 'tool', arguments: argumentText(item.arguments) }] };
  if (item.type === 'function_call_output') return { role: 'tool', text: argumentText(item.output), toolCalls: [], toolCallId: str(item.call_id) };
  if (item.type === 'reasoning') return undefined;
  if (typeof item.role === 'string') return { role: item.role, text: contentText(item.content), toolCalls: [] };
  return undefined;
}

function toolNamesOf(tools: unknown): string[] {
  if (!Array.isArray(tools)) return [];
  return tools.filter(isRecord).flatMap((tool) => {
    const name = str(tool.name) ?? (isRecord(tool.function) ? str(tool.function.name) : undefined);
    return name ? [name] : [];
  });
}

/** The request body as messages, oldest first; undefined when it is not one of the shapes (or was cut short). */
export function readableRequest(body: string | null | undefined): ReadableRequest | undefined {
  if (!body) return undefined;
  const request = parseJson(body);
  if (!isRecord(request)) return undefined;
  const messages: ReadableMessage[] = [];
  if (Array.isArray(request.messages)) {
    // Anthropic keeps the system prompt beside the messages; chat completions has it as a message.
    const system = contentText(request.system);
    if (system) messages.push({ role: 'system', text: system, toolCalls: [] });
    for (const message of request.messages) {
      if (!isRecord(message)) continue;
      const anthropic = Array.isArray(message.content) && message.content.some((p) => isRecord(p) && (p.type === 'tool_use' || p.type === 'tool_result'));
      if (anthropic) {
        messages.push(anthropicMessage(message));
        continue;
      }
      messages.push({
        role: str(message.role) ?? 'user',
        text: contentText(message.content),
        toolCalls: chatToolCalls(message.tool_calls),
        ...(str(message.tool_call_id) ? { toolCallId: str(message.tool_call_id) } : {}),
      });
    }
  } else if (request.input !== undefined) {
    const instructions = str(request.instructions);
    if (instructions) messages.push({ role: 'system', text: instructions, toolCalls: [] });
    const items = Array.isArray(request.input) ? request.input : [request.input];
    for (const item of items) {
      const message = responsesItem(item);
      if (message) messages.push(message);
    }
  } else {
    return undefined;
  }
  return { messages, tools: toolNamesOf(request.tools) };
}

/** Builds an answer from the pieces of a stream (or a whole JSON answer), in any of the three shapes. */
class AnswerFold {
  text = '';
  private readonly calls: Array<{ name: string; arguments: string }> = [];
  /** Chat completions streams a call's arguments in pieces by index; Anthropic by content block index. */
  private readonly byIndex = new Map<string, { name: string; arguments: string }>();

  call(key: string, name: string | undefined, argumentsPart: string): void {
    let call = this.byIndex.get(key);
    if (!call) {
      call = { name: name ?? 'tool', arguments: '' };
      this.byIndex.set(key, call);
      this.calls.push(call);
    } else if (name && call.name === 'tool') call.name = name;
    call.arguments += argumentsPart;
  }

  whole(name: string | undefined, args: unknown): void {
    this.calls.push({ name: name ?? 'tool', arguments: argumentText(args) });
  }

  /** One server-sent event's data, or the whole answer of a call that did not stream. */
  read(value: unknown, streamed: boolean): void {
    if (!isRecord(value)) return;
    // OpenAI chat completions (and Azure's).
    if (Array.isArray(value.choices)) {
      for (const choice of value.choices.filter(isRecord)) {
        const part = isRecord(choice.delta) ? choice.delta : isRecord(choice.message) ? choice.message : undefined;
        if (!part) continue;
        if (typeof part.content === 'string') this.text += part.content;
        if (Array.isArray(part.tool_calls)) {
          part.tool_calls.filter(isRecord).forEach((call, i) => {
            const fn = isRecord(call.function) ? call.function : {};
            if (streamed)
              this.call(
                `chat-${typeof choice.index === 'number' ? choice.index : 0}-${typeof call.index === 'number' ? call.index : i}`,
                str(fn.name),
                argumentText(fn.arguments),
              );
            else this.whole(str(fn.name), fn.arguments);
          });
        }
      }
      return;
    }
    const type = str(value.type);
    // OpenAI responses: deltas of text while streaming; the finished items (or the whole response) otherwise.
    if (type === 'response.output_text.delta') {
      this.text += str(value.delta) ?? '';
      return;
    }
    if (type === 'response.output_item.done' && isRecord(value.item) && value.item.type === 'function_call') {
      this.whole(str(value.item.name), value.item.arguments);
      return;
    }
    if (!streamed && Array.isArray(value.output)) {
      for (const item of value.output.filter(isRecord)) {
        if (item.type === 'message') this.text += contentText(item.content);
        if (item.type === 'function_call') this.whole(str(item.name), item.arguments);
      }
      return;
    }
    // Anthropic messages: text and tool-input deltas by content block, or the whole message's content.
    if (type === 'content_block_start' && isRecord(value.content_block)) {
      const block = value.content_block;
      if (block.type === 'tool_use') this.call(`block-${String(value.index)}`, str(block.name), '');
      if (block.type === 'text' && typeof block.text === 'string') this.text += block.text;
      return;
    }
    if (type === 'content_block_delta' && isRecord(value.delta)) {
      if (value.delta.type === 'text_delta') this.text += str(value.delta.text) ?? '';
      if (value.delta.type === 'input_json_delta') this.call(`block-${String(value.index)}`, undefined, str(value.delta.partial_json) ?? '');
      return;
    }
    if (!streamed && Array.isArray(value.content)) {
      for (const block of value.content.filter(isRecord)) {
        if (block.type === 'text') this.text += str(block.text) ?? '';
        if (block.type === 'tool_use') this.whole(str(block.name), block.input);
      }
    }
  }

  answer(): ReadableAnswer {
    return { text: this.text, toolCalls: this.calls };
  }
}

/**
 * The answer as the model's text and tool calls: a server-sent-event stream is read event by event, a
 * JSON answer whole. Undefined when it is neither (an error page, a body cut short mid-JSON).
 */
export function readableAnswer(body: string | null | undefined): ReadableAnswer | undefined {
  if (!body) return undefined;
  const fold = new AnswerFold();
  const trimmed = body.trimStart();
  if (trimmed.startsWith('{')) {
    const whole = parseJson(trimmed);
    if (!isRecord(whole)) return undefined;
    fold.read(whole, false);
  } else {
    let events = 0;
    for (const raw of body.split('\n')) {
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      if (!line.startsWith('data:')) continue;
      const payload = line.slice(5).trim();
      if (!payload || payload === '[DONE]') continue;
      const value = parseJson(payload);
      if (value === undefined) continue; // the last event of a truncated body
      events += 1;
      fold.read(value, true);
    }
    if (events === 0) return undefined;
  }
  const answer = fold.answer();
  return answer.text === '' && answer.toolCalls.length === 0 ? undefined : answer;
}
