import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { describeJsonInputProblem, type JsonInputProblem, jsonInputProblem, MAX_JSON_DEPTH } from '../common';

/** A JSON input refused, as a GraphQL error with the REST code for bad input. */
export const jsonInputError = (problem: JsonInputProblem) =>
  new GraphQLError(describeJsonInputProblem(problem), {
    extensions: { code: 'invalid_input', statusCode: 400, ...(problem.kind === 'depth' ? { maxDepth: MAX_JSON_DEPTH } : {}) },
  });

/**
 * Any JSON value (event data, tool arguments, session config). Inputs deeper than MAX_JSON_DEPTH or
 * holding text that is not Unicode are refused here, literals included (HTTP bodies and WebSocket
 * messages are also checked before GraphQL sees them).
 */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: `Any JSON value (as an input: at most ${MAX_JSON_DEPTH} levels of objects and arrays)`,
  serialize: (value) => value,
  parseValue: (value) => {
    const problem = jsonInputProblem(value);
    if (problem) throw jsonInputError(problem);
    return value;
  },
  parseLiteral: (ast, variables) => literal(ast, variables, [], 1),
});

function literal(ast: ValueNode, variables: Record<string, unknown> | null | undefined, path: Array<string | number>, depth: number): unknown {
  if ((ast.kind === Kind.LIST || ast.kind === Kind.OBJECT) && depth > MAX_JSON_DEPTH) throw jsonInputError({ kind: 'depth', path });
  switch (ast.kind) {
    case Kind.STRING: {
      const problem = jsonInputProblem(ast.value);
      if (problem) throw jsonInputError({ kind: problem.kind, path });
      return ast.value;
    }
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map((v, i) => literal(v, variables, [...path, i], depth + 1));
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables, [...path, f.name.value], depth + 1)]));
    case Kind.VARIABLE: {
      // A variable inside a literal was coerced as JSON on its own; its depth adds to where it sits.
      // An own entry only: a declared variable left out, named `$constructor`, is undefined, not Object's constructor.
      const value = variables && Object.hasOwn(variables, ast.name.value) ? variables[ast.name.value] : undefined;
      const problem = jsonInputProblem(value, MAX_JSON_DEPTH - depth + 1);
      if (problem) throw jsonInputError({ kind: problem.kind, path: [...path, ...problem.path] });
      return value;
    }
    default:
      return undefined;
  }
}

const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

function toTimestamp(value: unknown): string {
  if (typeof value === 'string' && ISO_TIMESTAMP.test(value)) {
    const time = Date.parse(value);
    if (Number.isFinite(time)) return new Date(time).toISOString();
  }
  throw new GraphQLError(`Timestamp must be an ISO 8601 date-time such as 2026-01-02T03:04:05Z (got ${JSON.stringify(value)})`);
}

/**
 * An ISO 8601 date-time. Stored timestamps are UTC `toISOString()` strings and go out as they are;
 * inputs are checked and normalised to that form so they compare with the stored ones.
 */
export const TimestampScalar = new GraphQLScalarType({
  name: 'Timestamp',
  description: 'ISO 8601 date-time, UTC on output (2026-01-02T03:04:05.678Z)',
  serialize: (value) => value,
  parseValue: toTimestamp,
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING) throw new GraphQLError('Timestamp must be a string');
    return toTimestamp(ast.value);
  },
});
