import { InvalidInputError } from '../../../common';

/** Opaque to callers: base64url of `[startedAt, runId]`. */
export function encodeRunCursor(run: { startedAt: string; runId: string }): string {
  return Buffer.from(JSON.stringify([run.startedAt, run.runId])).toString('base64url');
}

export function decodeRunCursor(cursor: string): { startedAt: string; runId: string } {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { startedAt: value[0], runId: value[1] };
    }
  } catch {
    // reported below
  }
  throw new InvalidInputError(
    `after: ${JSON.stringify(cursor)} is not a cursor this API gave out (pass the previous page's next_cursor over REST, pageInfo.endCursor over GraphQL)`,
  );
}
