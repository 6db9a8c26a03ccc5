import { buildSchema, GraphQLID, GraphQLInt, GraphQLList, GraphQLObjectType, GraphQLSchema, parse } from 'graphql';
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
});
