import { buildSchema, type GraphQLFieldConfigMap, GraphQLID, GraphQLInt, GraphQLList, GraphQLObjectType, GraphQLSchema, parse } from 'graphql';
import { ListSize, ListSizeOutOfRangeError } from './input-validation';
import { checkQueryLimits, MAX_QUERY_COMPLEXITY, MAX_QUERY_DEPTH, queryDepth } from './query-limits';

describe('query limits', () => {
  it('counts field nesting through fragments and inline fragments, not introspection', () => {
    expect(queryDepth(parse('{ a { b { c } } }'))).toBe(3);
    expect(queryDepth(parse('query Q { a { ...F } } fragment F on T { b { ... on T { c { d } } } }'))).toBe(4);
    expect(queryDepth(parse('{ __schema { types { fields { type { ofType { ofType { name } } } } } } }'))).toBe(0);
    expect(queryDepth(parse('query A { a } query B { a { b { c } } }'), 'A')).toBe(1);
  });

  it('refuses an operation deeper than the limit with query_too_deep', () => {
    const schema = buildSchema('type Query { node: Node } type Node { id: ID, next: Node }');
    const deep = `{ node { ${'next { '.repeat(MAX_QUERY_DEPTH)} id ${'} '.repeat(MAX_QUERY_DEPTH)} } }`;
    const error = checkQueryLimits(schema, parse(deep), {});
    expect(error?.extensions).toMatchObject({ code: 'query_too_deep', maxDepth: MAX_QUERY_DEPTH });
    expect(checkQueryLimits(schema, parse('{ node { next { id } } }'), {})).toBeUndefined();
  });

  it('refuses an operation above the complexity limit with query_too_complex, taking variables into account', () => {
    const item = new GraphQLObjectType({ name: 'Item', fields: { id: { type: GraphQLID } } });
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: {
          items: {
            type: new GraphQLList(item),
            args: { first: { type: GraphQLInt } },
            extensions: { complexity: ({ args, childComplexity }: { args: { first: number }; childComplexity: number }) => args.first * childComplexity },
          },
        },
      }),
    });
    const query = parse('query Q($n: Int) { items(first: $n) { id } }');
    expect(checkQueryLimits(schema, query, { n: 10 })).toBeUndefined();
    expect(checkQueryLimits(schema, query, { n: MAX_QUERY_COMPLEXITY + 1 })?.extensions).toMatchObject({
      code: 'query_too_complex',
      complexity: MAX_QUERY_COMPLEXITY + 1,
    });
  });

  it('refuses an operation with too many fields to estimate as query_too_complex', () => {
    const schema = buildSchema('type Query { id: ID }');
    const wide = `{ ${Array.from({ length: 20_000 }, (_, i) => `a${i}: id`).join(' ')} }`;
    expect(checkQueryLimits(schema, parse(wide), {})?.extensions).toMatchObject({ code: 'query_too_complex' });
  });

  describe('list sizes (first/limit) are checked before the operation is costed', () => {
    const item: GraphQLObjectType = new GraphQLObjectType({
      name: 'Item',
      fields: (): GraphQLFieldConfigMap<unknown, unknown> => ({
        id: { type: GraphQLID },
        children: { type: new GraphQLList(item), args: { first: { type: GraphQLInt } }, extensions: { complexity: CHILDREN.complexity } },
      }),
    });
    const SESSIONS = new ListSize('limit', 1, 1000, 100);
    const CHILDREN = new ListSize('first', 1, 500, 50);
    const schema = new GraphQLSchema({
      query: new GraphQLObjectType({
        name: 'Query',
        fields: { sessions: { type: new GraphQLList(item), args: { limit: { type: GraphQLInt } }, extensions: { complexity: SESSIONS.complexity } } },
      }),
    });

    // The reproduction: a negative limit made the estimate negative and 1,000 aliases ran anyway (5.5 s).
    it('refuses a negative limit next to a thousand aliases instead of letting them through', () => {
      const aliases = Array.from({ length: 1000 }, (_, i) => `a${i}: sessions { id }`).join(' ');
      const error = checkQueryLimits(schema, parse(`{ neg: sessions(limit: -5000000) { id } ${aliases} }`), {});
      expect(error).toBeInstanceOf(ListSizeOutOfRangeError);
      expect(error?.message).toBe('limit: must be an integer from 1 to 1000 (got -5000000)');
      expect(error?.extensions).toMatchObject({ code: 'invalid_input', statusCode: 400, http: { status: 400 } });
      expect(error?.path).toEqual(['neg']);
    });

    it('refuses over-max and null sizes, nested ones and ones given as variables', () => {
      expect(checkQueryLimits(schema, parse('{ sessions(limit: 1001) { id } }'), {})?.message).toMatch(/got 1001/);
      expect(checkQueryLimits(schema, parse('{ sessions(limit: null) { id } }'), {})?.message).toMatch(/got null/);
      const nested = checkQueryLimits(schema, parse('query ($n: Int) { sessions { children(first: $n) { id } } }'), { n: -1 });
      expect(nested?.message).toBe('first: must be an integer from 1 to 500 (got -1)');
      expect(nested?.path).toBeUndefined(); // below the top level the response path is not known before execution
    });

    it('costs a valid size as given and an absent one at its default', () => {
      expect(checkQueryLimits(schema, parse('{ sessions(limit: 1000) { children(first: 50) { id } } }'), {})).toBeUndefined();
      expect(checkQueryLimits(schema, parse('{ sessions(limit: 1000) { children(first: 51) { id } } }'), {})?.extensions).toMatchObject({
        code: 'query_too_complex',
      });
      const aliases = Array.from({ length: 1000 }, (_, i) => `a${i}: sessions { id }`).join(' ');
      expect(checkQueryLimits(schema, parse(`{ ${aliases} }`), {})?.extensions).toMatchObject({ code: 'query_too_complex', complexity: 100_000 });
    });
  });
});
