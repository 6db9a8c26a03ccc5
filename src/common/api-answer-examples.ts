import { z, type ZodType } from 'zod';
import type { DocumentedAnswer, PathParameterExample } from './api-answers';

/** What the documented answers of several contexts share: the ids and times of the examples, and a few schemas. */
export const SESSION_ID = '0192f3a4-5b6c-7d8e-9f01-23456789abcd';
export const RUN_ID = '0192f3a4-7777-7abc-8def-0123456789ab';
export const MODEL_CALL_ID = '0192f3a4-cccc-7abc-8def-0123456789ab';
export const AT = '2026-11-27T14:03:12.345Z';
export const LATER = '2026-11-27T14:04:02.120Z';
/** issue 27: a named key's id in the examples. */
export const KEY_ID = '0192f3a4-dddd-7abc-8def-0123456789ab';

export const iso = z.string().describe('ISO 8601 UTC timestamp');
export const nullable = <T extends ZodType>(schema: T) => schema.nullable();

/** A path parameter that is a UUID, with an example of one. */
export const uuidParameter = (example: string): PathParameterExample => ({ example, format: 'uuid' });

/** issue 27: who did something (src/common/actor.ts). */
export const actorView = z.object({
  kind: z.enum(['user', 'key', 'agent', 'system']),
  id: z.string(),
  name: z.string(),
  lineage: z.array(z.string()).optional().describe("an agent's lineage: agent names from the top of the team down to it"),
  via: z.enum(['console', 'api', 'mcp', 'a2a']).optional().describe("where a person's or key's request came from"),
});

/** An answer that is text (SSE, JSONL, Prometheus), not JSON. */
export const text = (description: string, contentType: string, example: string): Omit<DocumentedAnswer, 'status'> => ({
  description,
  contentType,
  schema: z.string(),
  example,
});
