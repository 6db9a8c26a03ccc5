import { InvalidInputError, PayloadTooLargeError } from './domain-error';

/**
 * Objects and arrays nested deeper than this are refused wherever JSON comes in (request bodies,
 * GraphQL JSON values, stored configurations): the event store's JSON.stringify overflows the stack
 * near 5,000 levels and the Copilot CLI stops answering well before that.
 */
export const MAX_JSON_DEPTH = 64;

/** What one free-form JSON value a request stores may weigh (a tool's JSON schema, an agent's mcpServers). */
export const MAX_STORED_FIELD_BYTES = 64 * 1024;

/** What one stored configuration may weigh as JSON (a session's config, an agent's definition): the body limit. */
export const MAX_STORED_DOCUMENT_BYTES = 1024 * 1024;

export type JsonPath = Array<string | number>;

/** Paths longer than this are shown as their first segments and an ellipsis: the start says where to look. */
const SHOWN_SEGMENTS = 8;

/** `tools.0.parameters.properties…`: the zod pipe's path style, cut after a few segments. */
export function describePath(path: JsonPath): string {
  const shown = path.slice(0, SHOWN_SEGMENTS).join('.');
  return path.length > SHOWN_SEGMENTS ? `${shown}…` : shown || '(root)';
}

interface Frame {
  value: unknown;
  depth: number;
  key?: string | number;
  parent?: Frame;
}

/**
 * Where `value` first nests deeper than `maxDepth` containers (the top-level object or array is
 * depth 1), or undefined. Iterative, so a hostile value cannot overflow the stack; it stops at the
 * first container that is too deep and never walks more than maxDepth + 1 levels down.
 */
export function tooDeepAt(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonPath | undefined {
  const pending: Frame[] = [{ value, depth: 1 }];
  while (pending.length > 0) {
    const frame = pending.pop()!;
    const current = frame.value;
    if (current === null || typeof current !== 'object') continue;
    if (frame.depth > maxDepth) return pathOf(frame);
    const entries: Array<[string | number, unknown]> = Array.isArray(current) ? current.map((v, i) => [i, v]) : Object.entries(current);
    for (const [key, child] of entries) {
      if (child !== null && typeof child === 'object') pending.push({ value: child, depth: frame.depth + 1, key, parent: frame });
    }
  }
  return undefined;
}

function pathOf(frame: Frame): JsonPath {
  const path: JsonPath = [];
  for (let f: Frame | undefined = frame; f?.key !== undefined; f = f.parent) path.unshift(f.key);
  return path;
}

/** 400 naming where `value` (found at `field`, e.g. `body`) nests too deep. */
export function assertJsonDepth(value: unknown, field: JsonPath = [], maxDepth = MAX_JSON_DEPTH): void {
  const at = tooDeepAt(value, maxDepth);
  if (!at) return;
  const path = [...field, ...at];
  throw new InvalidInputError(
    `${describePath(path)}: JSON nested more than ${maxDepth} levels deep; at most ${maxDepth} levels of objects and arrays are allowed`,
    { path: path.slice(0, SHOWN_SEGMENTS), maxDepth },
  );
}

/**
 * Refuses a value a request wants stored when it nests too deep (400) or weighs more than `maxBytes`
 * as JSON (413); both name `field`. The depth check comes first: JSON.stringify of a very deep value throws.
 */
export function assertStorableJson(field: JsonPath, value: unknown, maxBytes: number): void {
  assertJsonDepth(value, field);
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '');
  if (bytes <= maxBytes) return;
  const name = describePath(field);
  throw new PayloadTooLargeError(`${name} is ${bytes} bytes as JSON; at most ${maxBytes} bytes may be stored there: make it smaller`, {
    field: name,
    bytes,
    maxBytes,
  });
}
