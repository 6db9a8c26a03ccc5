import type { ZodType } from 'zod';
import { InvalidInputError } from '../common/domain-error';
import { ZodValidationPipe } from '../common/zod-validation.pipe';

/** GraphQL inputs go through the same zod schemas as the REST bodies: the same rules, the same messages. */
export function validated<T>(schema: ZodType<T>, value: unknown): T {
  return new ZodValidationPipe(schema).transform(withoutUndefined(value));
}

/** Leaves out fields a GraphQL input did not set, so zod defaults apply as for an absent JSON field. */
export function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, withoutUndefined(v)]));
}

export function inRange(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new InvalidInputError(`${name}: must be an integer from ${min} to ${max} (got ${value})`);
  return value;
}

/** A filter input without the fields given as null (GraphQL lets a client send null for "no filter"). */
export function presentFields<T extends object>(value: T | null | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}
