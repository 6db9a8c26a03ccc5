/**
 * issue 24: the JSON API speaks camelCase. Runs, approvals and session budgets answered in
 * snake_case until now (they share their shape with the delegation tools' results, which keep the
 * spec's snake_case); these helpers turn them into the API's spelling at the REST boundary and
 * accept the old spelling on input for one release.
 */

/** The release in which the snake_case request keys stop being accepted. */
export const SNAKE_CASE_INPUT_REMOVED_IN = '0.2.0';

export function camelCaseOf(key: string): string {
  return key.replace(/_([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  // A parsed query string has no prototype.
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The value with every object key in camelCase, at any depth; the values of `opaque` keys (a tool
 * call's arguments: what the model wrote, not the API's vocabulary) are kept as they are.
 */
export function camelCaseKeys(value: unknown, opaque: ReadonlySet<string> = new Set()): unknown {
  if (Array.isArray(value)) return value.map((item) => camelCaseKeys(item, opaque));
  if (!isPlainObject(value)) return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const name = camelCaseOf(key);
    result[name] = opaque.has(key) || opaque.has(name) ? inner : camelCaseKeys(inner, opaque);
  }
  return result;
}

/** Where a request's old spelling is looked for: the top level and the named nested objects. */
export interface LegacyKeyScope {
  topLevel: boolean;
  nested: readonly string[];
}

/** A key given in the old spelling and the one that replaces it. */
export interface RenamedKey {
  from: string;
  to: string;
}

/**
 * A request part (body or query) with its snake_case keys renamed to camelCase, in the given scope
 * only (a session's tool schemas are the caller's own JSON and keep their keys), and the renames
 * made. When both spellings are given the new one wins and the old one is left for the schema to
 * refuse as unknown, so nothing is silently dropped.
 */
export function renameLegacyKeys(value: unknown, scope: LegacyKeyScope): { value: unknown; renamed: RenamedKey[] } {
  if (!isPlainObject(value)) return { value, renamed: [] };
  const renamed: RenamedKey[] = [];
  const renameIn = (object: Record<string, unknown>, path: string): Record<string, unknown> => {
    const result: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(object)) {
      const name = camelCaseOf(key);
      if (name !== key && !(name in object)) {
        result[name] = inner;
        renamed.push({ from: path + key, to: path + name });
      } else {
        result[key] = inner;
      }
    }
    return result;
  };
  let result = scope.topLevel ? renameIn(value, '') : { ...value };
  for (const nestedKey of scope.nested) {
    const inner = result[nestedKey];
    if (isPlainObject(inner)) result = { ...result, [nestedKey]: renameIn(inner, `${nestedKey}.`) };
  }
  return { value: result, renamed };
}
