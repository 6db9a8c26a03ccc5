import * as os from 'node:os';
import type { ReplayDivergence } from '../model-call.events';
import { isJsonObject, parseObject } from '../request-summary';

/**
 * issue 26: what a replay compares of a model request, and how. Recording the same run twice with the real
 * CLI (1.0.102) shows what changes from run to run in an otherwise identical request: the session's id (a
 * UUID, in the system prompt's session folder and in a run thread's `sub-agent-<runId>`), the
 * `<current_datetime>` the CLI puts before each user prompt, and the random suffix of a temporary folder
 * (a test's home and workspace). Only those are masked; anything else that differs is a divergence.
 */
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const DATETIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?/g;

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A folder directly under the temporary directory (`/tmp/switchboard-test-YfoeGx`): its name is made up per run. */
const TEMP_FOLDER = new RegExp(`${escaped(os.tmpdir().replace(/\/+$/, ''))}/[^/\\s"'\\\\]+`, 'g');

/** The text with what differs from run to run masked. */
export function normalizedText(text: string): string {
  return text.replace(TEMP_FOLDER, '<tmp>').replace(UUID, '<id>').replace(DATETIME, '<datetime>');
}

/** A request split into the parts a divergence names: each part's text normalized. */
export interface RequestParts {
  model: string;
  system: string;
  /** Tool definitions by name, in the order offered. */
  tools: Map<string, string>;
  /** The conversation (system messages left out), one JSON text per message. */
  messages: string[];
}

type JsonObject = Record<string, unknown>;
const SYSTEM_ROLES = new Set(['system', 'developer']);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part) => (typeof part === 'string' ? part : isJsonObject(part) && typeof part.text === 'string' ? part.text : JSON.stringify(part)))
      .join('');
  return content === undefined || content === null ? '' : JSON.stringify(content);
}

/**
 * The parts of a chat request body: OpenAI chat completions (`messages` with system/developer roles),
 * Anthropic messages (`system` beside `messages`) and the responses API (`instructions`, `input`).
 * Undefined for a body that is not a JSON object (compared whole then).
 */
export function requestPartsOf(body: string): RequestParts | undefined {
  const parsed = parseObject(body);
  if (!parsed) return undefined;
  const conversation: unknown[] = Array.isArray(parsed.messages) ? parsed.messages : Array.isArray(parsed.input) ? parsed.input : [];
  const system: string[] = [];
  if (parsed.system !== undefined) system.push(textOf(parsed.system));
  if (typeof parsed.instructions === 'string') system.push(parsed.instructions);
  const messages: string[] = [];
  for (const message of conversation) {
    if (isJsonObject(message) && typeof message.role === 'string' && SYSTEM_ROLES.has(message.role)) system.push(textOf(message.content));
    else messages.push(normalizedText(JSON.stringify(message)));
  }
  const tools = new Map<string, string>();
  if (Array.isArray(parsed.tools)) {
    (parsed.tools as unknown[]).forEach((tool, i) => {
      const fn: unknown = isJsonObject(tool) && isJsonObject(tool.function) ? tool.function : tool;
      const name = isJsonObject(fn) && typeof fn.name === 'string' ? fn.name : `#${i}`;
      tools.set(name, normalizedText(JSON.stringify(tool)));
    });
  }
  return { model: typeof parsed.model === 'string' ? parsed.model : '', system: normalizedText(system.join('\n')), tools, messages };
}

/** Each version a divergence shows is cut to this many characters. */
export const DIVERGENCE_TEXT_MAX = 4096;
/** A long text is shown from a little before its first difference. */
const BEFORE_DIFFERENCE = 512;

/** The first difference between what an agent asked then and what it asks now (both normalized), or undefined when they agree. */
export function firstDivergence(original: string, now: string): ReplayDivergence | undefined {
  const then = requestPartsOf(original);
  const current = requestPartsOf(now);
  if (!then || !current) {
    const [a, b] = [normalizedText(original), normalizedText(now)];
    return a === b ? undefined : textDivergence('messages', a, b);
  }
  if (then.model !== current.model) return { part: 'model', original: then.model, now: current.model };
  if (then.system !== current.system) return textDivergence('system', then.system, current.system);
  const toolNames = [...new Set([...then.tools.keys(), ...current.tools.keys()])];
  for (const name of toolNames) {
    const [a, b] = [then.tools.get(name), current.tools.get(name)];
    if (a !== b) return { part: 'tools', at: name, ...cut('original', a), ...cut('now', b) };
  }
  if ([...then.tools.keys()].join('\n') !== [...current.tools.keys()].join('\n')) {
    return { part: 'tools', at: 'order', original: [...then.tools.keys()].join(', '), now: [...current.tools.keys()].join(', ') };
  }
  const count = Math.max(then.messages.length, current.messages.length);
  for (let i = 0; i < count; i += 1) {
    const [a, b] = [then.messages[i], current.messages[i]];
    if (a !== b) return { part: 'messages', at: String(i), ...cut('original', a), ...cut('now', b) };
  }
  return undefined;
}

function cut<K extends 'original' | 'now'>(key: K, text: string | undefined): Partial<Record<K, string>> {
  if (text === undefined) return {};
  return { [key]: text.length > DIVERGENCE_TEXT_MAX ? `${text.slice(0, DIVERGENCE_TEXT_MAX - 1)}…` : text } as Partial<Record<K, string>>;
}

/** Two long texts shown from just before where they part (`at`: that character), so a change at the end of a long prompt is in view. */
function textDivergence(part: 'system' | 'messages', a: string, b: string): ReplayDivergence {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i += 1;
  const from = a.length > DIVERGENCE_TEXT_MAX || b.length > DIVERGENCE_TEXT_MAX ? Math.max(0, i - BEFORE_DIFFERENCE) : 0;
  const window = (text: string) => (from > 0 ? `…${text.slice(from)}` : text);
  return { part, ...(from > 0 ? { at: `character ${i}` } : {}), ...cut('original', window(a)), ...cut('now', window(b)) };
}

/** What a fork changes in a live call's request: a user message appended (at the fork point), the agent's prompt or model replaced. */
export interface ForkChanges {
  message?: string;
  prompt?: string;
  model?: string;
}

/**
 * The request body with a fork's changes. The prompt replaces the agent's whole system message (the CLI
 * builds one from its own instructions and the agent's prompt; which part is the agent's is not marked).
 * A body that is not a JSON object is sent as it was.
 */
export function withForkChanges(body: string, changes: ForkChanges): string {
  if (changes.message === undefined && changes.prompt === undefined && changes.model === undefined) return body;
  const parsed = parseObject(body);
  if (!parsed) return body;
  const request: JsonObject = { ...parsed };
  if (changes.model !== undefined) request.model = changes.model;
  const listKey = Array.isArray(request.messages) ? 'messages' : Array.isArray(request.input) ? 'input' : 'messages';
  let conversation: unknown[] = Array.isArray(request[listKey]) ? [...(request[listKey] as unknown[])] : [];
  if (changes.prompt !== undefined) {
    if (request.system !== undefined) request.system = changes.prompt;
    else if (typeof request.instructions === 'string') request.instructions = changes.prompt;
    else {
      const isSystem = (m: unknown) => isJsonObject(m) && typeof m.role === 'string' && SYSTEM_ROLES.has(m.role);
      const role = (conversation.find(isSystem) as JsonObject | undefined)?.role ?? 'system';
      conversation = [{ role, content: changes.prompt }, ...conversation.filter((m) => !isSystem(m))];
    }
  }
  if (changes.message !== undefined) conversation.push({ role: 'user', content: changes.message });
  request[listKey] = conversation;
  return JSON.stringify(request);
}
