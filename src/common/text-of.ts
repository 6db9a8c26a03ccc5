/**
 * `String(value ?? fallback)` for a value read as `unknown` (event data, error payloads): the same
 * text, written so the type checker sees a string is produced on purpose.
 */
export function textOf(value: unknown, fallback = ''): string {
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- objects give what String() gives, as before
  return value === undefined || value === null ? fallback : String(value);
}
