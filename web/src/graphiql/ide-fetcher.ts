import { type ExecutionResult, type FormattedExecutionResult, getOperationAST, OperationTypeNode, parse } from 'graphql';
import { createClient, type Client } from 'graphql-ws';

/** What GraphiQL hands a fetcher: one operation. */
export interface IdeOperation {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/**
 * How the IDE reaches /graphql as the console does: queries and mutations as JSON POSTs (which Apollo's
 * CSRF check lets through) with the tab's token, subscriptions over graphql-ws with the token as
 * connection parameters. Same origin, so the service's Host and Origin rules accept it.
 */
export function ideFetcher(token: string | undefined, location: Pick<Location, 'protocol' | 'host'> = window.location) {
  const authorization: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  let socket: Client | undefined;
  const subscriptions = () =>
    (socket ??= createClient({
      url: `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`,
      connectionParams: authorization,
      lazy: true,
    }));
  return (operation: IdeOperation): Promise<ExecutionResult> | AsyncIterable<ExecutionResult> => {
    if (isSubscription(operation))
      return asResults(
        subscriptions().iterate({ ...operation, variables: operation.variables ?? undefined, operationName: operation.operationName ?? undefined }),
      );
    return fetch('/graphql', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/graphql-response+json, application/json', ...authorization },
      body: JSON.stringify(operation),
    }).then((response) => response.json() as Promise<ExecutionResult>);
  };
}

/** GraphiQL's type names GraphQLError instances; what comes over a socket is their JSON form, which it reads the same. */
async function* asResults(source: AsyncIterable<FormattedExecutionResult>): AsyncIterable<ExecutionResult> {
  for await (const result of source) yield result as ExecutionResult;
}

/** A document that does not parse goes over HTTP, where the service says what is wrong with it. */
function isSubscription({ query, operationName }: IdeOperation): boolean {
  try {
    return getOperationAST(parse(query), operationName ?? undefined)?.operation === OperationTypeNode.SUBSCRIPTION;
  } catch {
    return false;
  }
}
