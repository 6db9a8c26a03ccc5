import {
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLSchema,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { fieldExtensionsEstimator, getComplexity, simpleEstimator } from 'graphql-query-complexity';
import { ListSizeOutOfRangeError } from './input-validation';

/** Deep enough for run { subtree { usage { subtree { ... } } } } and a few levels of children; no deeper. */
export const MAX_QUERY_DEPTH = 12;
/** A 1,000-run subtree with its usage costs about 10,000. */
export const MAX_QUERY_COMPLEXITY = 50_000;

/** Each error is sent with 400 over HTTP, or in the subscription's error message over WebSocket. */
export function limitError(message: string, code: 'query_too_deep' | 'query_too_complex', details: Record<string, number>): GraphQLError {
  return new GraphQLError(message, { extensions: { code, ...details, http: { status: 400 } } });
}

/**
 * Depth of the operation's field nesting, fragments expanded. Introspection (`__schema`, `__type`) is
 * not counted: its shape is fixed by the spec and tools need it.
 */
export function queryDepth(document: DocumentNode, operationName?: string | null): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const depthOf = (selectionSet: SelectionSetNode | undefined, visiting: Set<string>): number => {
    if (!selectionSet) return 0;
    let deepest = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        if (selection.name.value.startsWith('__')) continue;
        deepest = Math.max(deepest, 1 + depthOf(selection.selectionSet, visiting));
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, depthOf(selection.selectionSet, visiting));
      } else {
        const name = selection.name.value;
        const fragment = fragments.get(name);
        if (!fragment || visiting.has(name)) continue; // unknown or cyclic: validation reports it
        deepest = Math.max(deepest, depthOf(fragment.selectionSet, new Set(visiting).add(name)));
      }
    }
    return deepest;
  };
  return Math.max(0, ...operationsOf(document, operationName).map((op) => depthOf(op.selectionSet, new Set())));
}

function operationsOf(document: DocumentNode, operationName?: string | null): OperationDefinitionNode[] {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (!operationName) return operations;
  return operations.filter((op) => op.name?.value === operationName);
}

/**
 * The limits every operation must meet before it runs (HTTP: an Apollo plugin; WebSocket:
 * graphql-ws onSubscribe). Complexity: 1 per field, lists multiplied by their `first`/`limit`
 * argument (checked against its range first: see ListSize) or their estimated size (see each field's `complexity`).
 */
export function checkQueryLimits(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Record<string, unknown> | undefined,
  operationName?: string | null,
): GraphQLError | undefined {
  const depth = queryDepth(document, operationName);
  if (depth > MAX_QUERY_DEPTH) {
    return limitError(
      `Query is ${depth} levels deep; at most ${MAX_QUERY_DEPTH} are allowed (use run.subtree or run.ancestors instead of nesting children or parent)`,
      'query_too_deep',
      { depth, maxDepth: MAX_QUERY_DEPTH },
    );
  }
  let complexity: number;
  try {
    complexity = getComplexity({
      schema,
      query: document,
      variables: variables ?? {},
      operationName: operationName ?? undefined,
      estimators: [fieldExtensionsEstimator(), simpleEstimator({ defaultComplexity: 1 })],
    });
  } catch (error) {
    if (error instanceof ListSizeOutOfRangeError) return error;
    // Too many nodes to even estimate, or variables that do not fit (reported again, precisely, by execution).
    if (error instanceof GraphQLError && /maximum allowed number of nodes/.test(error.message)) {
      return limitError(`${error.message} (ask for fewer fields or aliases)`, 'query_too_complex', { maxComplexity: MAX_QUERY_COMPLEXITY });
    }
    return undefined;
  }
  if (complexity > MAX_QUERY_COMPLEXITY) {
    return limitError(
      `Query complexity is ${complexity}; at most ${MAX_QUERY_COMPLEXITY} is allowed (ask for fewer items with first/limit, or fewer nested lists)`,
      'query_too_complex',
      { complexity, maxComplexity: MAX_QUERY_COMPLEXITY },
    );
  }
  return undefined;
}
