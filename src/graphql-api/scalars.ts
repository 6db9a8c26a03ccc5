import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';

/** Any JSON value (event data, tool arguments, session config). */
export const JsonScalar = new GraphQLScalarType({
  name: 'JSON',
  description: 'Any JSON value',
  serialize: (value) => value,
  parseValue: (value) => value,
  parseLiteral: function literal(ast: ValueNode, variables?: Record<string, unknown> | null): unknown {
    switch (ast.kind) {
      case Kind.STRING:
      case Kind.BOOLEAN:
        return ast.value;
      case Kind.INT:
      case Kind.FLOAT:
        return Number(ast.value);
      case Kind.NULL:
        return null;
      case Kind.LIST:
        return ast.values.map((v) => literal(v, variables));
      case Kind.OBJECT:
        return Object.fromEntries(ast.fields.map((f) => [f.name.value, literal(f.value, variables)]));
      case Kind.VARIABLE:
        return variables?.[ast.name.value];
      default:
        return undefined;
    }
  },
});

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
