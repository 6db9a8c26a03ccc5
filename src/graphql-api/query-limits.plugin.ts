import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import { GraphQLError, OperationTypeNode } from 'graphql';
import { checkQueryLimits } from './query-limits';

export const SUBSCRIPTION_OVER_HTTP_MESSAGE = 'Subscriptions are served over WebSocket at /graphql (graphql-ws protocol), not over HTTP POST';

/**
 * Refuses, before any resolver runs (400), an HTTP operation over the depth or complexity limit, and
 * a subscription: over HTTP it would run its resolver as a query and fail with an internal error.
 */
@Plugin()
export class QueryLimitsPlugin implements ApolloServerPlugin {
  async requestDidStart(): Promise<GraphQLRequestListener<Record<string, unknown>>> {
    return {
      async didResolveOperation({ request, document, schema, operation }) {
        if (operation?.operation === OperationTypeNode.SUBSCRIPTION) {
          throw new GraphQLError(SUBSCRIPTION_OVER_HTTP_MESSAGE, {
            nodes: operation,
            extensions: { code: 'invalid_input', statusCode: 400, http: { status: 400 } },
          });
        }
        const error = checkQueryLimits(schema, document, request.variables, request.operationName);
        if (error) throw error;
      },
    };
  }
}
