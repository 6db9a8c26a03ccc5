import { GraphQLError, Kind, parseValue } from 'graphql';
import { MAX_JSON_DEPTH } from '../common';
import { JsonScalar } from './scalars';

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** The same nesting as a GraphQL literal: {a: {a: ... 1}}. */
const literal = (depth: number) => parseValue(`${'{a: '.repeat(depth)}1${'}'.repeat(depth)}`);

describe('JSON scalar', () => {
  it(`takes values up to ${MAX_JSON_DEPTH} levels deep, as variables and as literals`, () => {
    expect(JsonScalar.parseValue(nested(MAX_JSON_DEPTH))).toEqual(nested(MAX_JSON_DEPTH));
    expect(JsonScalar.parseLiteral(literal(MAX_JSON_DEPTH), {})).toEqual(nested(MAX_JSON_DEPTH));
  });

  it('refuses deeper ones with invalid_input naming where', () => {
    expect(() => JsonScalar.parseValue(nested(1000))).toThrow(GraphQLError);
    expect(() => JsonScalar.parseValue(nested(1000))).toThrow(/^a\.a\.a\.a\.a\.a\.a\.a…: JSON nested more than 64 levels deep/);
    expect(() => JsonScalar.parseLiteral(literal(MAX_JSON_DEPTH + 1), {})).toThrow(/nested more than 64 levels deep/);
    try {
      JsonScalar.parseValue([nested(MAX_JSON_DEPTH)]);
      throw new Error('accepted');
    } catch (error) {
      expect((error as GraphQLError).extensions).toMatchObject({ code: 'invalid_input', statusCode: 400 });
    }
  });

  it('counts a variable inside a literal from where it sits', () => {
    const inList = { kind: Kind.LIST, values: [{ kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: 'v' } }] } as const;
    expect(JsonScalar.parseLiteral(inList, { v: nested(MAX_JSON_DEPTH - 1) })).toEqual([nested(MAX_JSON_DEPTH - 1)]);
    expect(() => JsonScalar.parseLiteral(inList, { v: nested(MAX_JSON_DEPTH) })).toThrow(/^0\.a.*: JSON nested more than 64 levels deep/);
  });

  it('reads a variable left out as undefined, never an Object.prototype member of the same name (issue 39)', () => {
    for (const name of ['constructor', 'toString', '__proto__']) {
      const inList = { kind: Kind.LIST, values: [{ kind: Kind.VARIABLE, name: { kind: Kind.NAME, value: name } }] } as const;
      expect(JsonScalar.parseLiteral(inList, {})).toEqual([undefined]);
    }
  });

  it('refuses text that is not well-formed Unicode, as a variable and as a literal', () => {
    expect(() => JsonScalar.parseValue({ description: 'x\ud800' })).toThrow(/^description: text that is not well-formed Unicode/);
    const literalString = {
      kind: Kind.OBJECT,
      fields: [{ kind: Kind.OBJECT_FIELD, name: { kind: Kind.NAME, value: 'd' }, value: { kind: Kind.STRING, value: 'x\udc00' } }],
    } as const;
    expect(() => JsonScalar.parseLiteral(literalString, {})).toThrow(/^d: text that is not well-formed Unicode/);
  });
});
