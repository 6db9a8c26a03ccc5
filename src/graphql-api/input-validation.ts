import { type ComplexityEstimatorArgs, Int } from '@nestjs/graphql';
import { type FieldNode, GraphQLError } from 'graphql';
import type { ZodType } from 'zod';
import { InvalidInputError, ZodValidationPipe } from '../common';

/** GraphQL inputs go through the same zod schemas as the REST bodies: the same rules, the same messages. */
export function validated<T>(schema: ZodType<T>, value: unknown): T {
  return new ZodValidationPipe(schema).transform(withoutUndefined(value));
}

/** Leaves out fields a GraphQL input did not set, so zod defaults apply as for an absent JSON field. */
export function withoutUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutUndefined);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, withoutUndefined(v)]),
  );
}

const rangeMessage = (name: string, value: unknown, min: number, max: number) =>
  `${name}: must be an integer from ${min} to ${max} (got ${String(value)})`;

export function inRange(name: string, value: number, min: number, max: number): number {
  if (!Number.isInteger(value) || value < min || value > max) throw new InvalidInputError(rangeMessage(name, value, min, max));
  return value;
}

/** A list-size argument out of its range, found while costing the operation: nothing of it runs. */
export class ListSizeOutOfRangeError extends GraphQLError {}

const ROOT_TYPES = new Set(['Query', 'Mutation', 'Subscription']);

/**
 * A list-size argument (`first`, `limit`) with its range, used both to cost the field and to check
 * the value the resolver gets. Costing checks it first: a negative size would make the estimate
 * negative and let other fields of the operation through the complexity limit.
 */
export class ListSize {
  constructor(
    readonly name: string,
    readonly min: number,
    readonly max: number,
    readonly fallback: number,
  ) {}

  get description(): string {
    return `${this.min}..${this.max}`;
  }

  /** The argument's options for `@Args`: an Int with its range as description, the fallback when absent. */
  get arg() {
    return { type: () => Int, defaultValue: this.fallback, description: this.description };
  }

  /** The field's complexity: its size (clamped, in case) times its children's; an out-of-range size refuses the operation. */
  readonly complexity = ({ args, childComplexity, type, node }: ComplexityEstimatorArgs & { node?: FieldNode }): number => {
    const value: unknown = args[this.name] === undefined ? this.fallback : args[this.name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < this.min || value > this.max) {
      const responseKey = node ? (node.alias ?? node.name).value : undefined;
      throw new ListSizeOutOfRangeError(rangeMessage(this.name, value, this.min, this.max), {
        nodes: node,
        // Exact only at the top level; below it the response path has list indexes not known yet.
        path: responseKey !== undefined && ROOT_TYPES.has(type.name) ? [responseKey] : undefined,
        extensions: { code: 'invalid_input', statusCode: 400, http: { status: 400 } },
      });
    }
    return Math.min(this.max, Math.max(this.min, value)) * childComplexity;
  };

  check(value: number): number {
    return inRange(this.name, value, this.min, this.max);
  }
}

/** The `after` argument of a connection paged by cursor. */
export const AFTER_CURSOR_ARG = { type: () => String, nullable: true, description: 'pageInfo.endCursor of the previous page' } as const;

/** A filter input without the fields given as null (GraphQL lets a client send null for "no filter"). */
export function presentFields<T extends object>(value: T | null | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}
