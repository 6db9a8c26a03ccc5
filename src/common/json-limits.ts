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

/** A UTF-16 code unit of a surrogate pair without its other half: not Unicode, and no JSON parser on the way out agrees on it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export interface JsonInputProblem {
  kind: 'depth' | 'unicode';
  path: JsonPath;
}

interface Frame {
  value: object;
  depth: number;
  key?: string | number;
  parent?: Frame;
}

/**
 * The first thing wrong with a JSON value that came in, or undefined: a container nested deeper than
 * `maxDepth` (the top-level object or array is depth 1), or a string or key that is not well-formed
 * Unicode (a lone surrogate, which JSON can carry as "\ud800": the Copilot CLI never answers a request
 * holding one). Iterative, so a hostile value cannot overflow the stack; it never walks below maxDepth + 1.
 */
export function jsonInputProblem(value: unknown, maxDepth = MAX_JSON_DEPTH): JsonInputProblem | undefined {
  if (typeof value === 'string') return LONE_SURROGATE.test(value) ? { kind: 'unicode', path: [] } : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  const pending: Frame[] = [{ value, depth: 1 }];
  while (pending.length > 0) {
    const frame = pending.pop()!;
    if (frame.depth > maxDepth) return { kind: 'depth', path: pathOf(frame) };
    const entries: Array<[string | number, unknown]> = Array.isArray(frame.value) ? frame.value.map((v, i) => [i, v]) : Object.entries(frame.value);
    for (const [key, child] of entries) {
      if (typeof key === 'string' && LONE_SURROGATE.test(key)) return { kind: 'unicode', path: [...pathOf(frame), key] };
      if (typeof child === 'string' && LONE_SURROGATE.test(child)) return { kind: 'unicode', path: [...pathOf(frame), key] };
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

/** What to tell the caller about a problem found at `path`. */
export function describeJsonInputProblem({ kind, path }: JsonInputProblem, maxDepth = MAX_JSON_DEPTH): string {
  return kind === 'depth'
    ? `${describePath(path)}: JSON nested more than ${maxDepth} levels deep; at most ${maxDepth} levels of objects and arrays are allowed`
    : `${describePath(path)}: text that is not well-formed Unicode (a lone surrogate such as \\ud800); send valid UTF-8 text`;
}

/** 400 naming where `value` (found at `field`) nests too deep or holds text that is not Unicode. */
export function assertJsonInput(value: unknown, field: JsonPath = [], maxDepth = MAX_JSON_DEPTH): void {
  const problem = jsonInputProblem(value, maxDepth);
  if (!problem) return;
  const at = { kind: problem.kind, path: [...field, ...problem.path] };
  throw new InvalidInputError(describeJsonInputProblem(at, maxDepth), {
    path: at.path.slice(0, SHOWN_SEGMENTS),
    ...(problem.kind === 'depth' ? { maxDepth } : {}),
  });
}

/**
 * Refuses a value a request wants stored when it nests too deep or holds text that is not Unicode
 * (400), or weighs more than `maxBytes` as JSON (413); each names `field`. The depth check comes
 * first: JSON.stringify of a very deep value throws.
 */
export function assertStorableJson(field: JsonPath, value: unknown, maxBytes: number): void {
  assertJsonInput(value, field);
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '');
  if (bytes <= maxBytes) return;
  const name = describePath(field);
  throw new PayloadTooLargeError(`${name} is ${bytes} bytes as JSON; at most ${maxBytes} bytes may be stored there: make it smaller`, {
    field: name,
    bytes,
    maxBytes,
  });
}
