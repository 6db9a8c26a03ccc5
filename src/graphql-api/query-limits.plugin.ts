import type { ApolloServerPlugin, GraphQLRequestListener } from '@apollo/server';
import { Plugin } from '@nestjs/apollo';
import { checkQueryLimits } from './query-limits';

/** Refuses an HTTP operation over the depth or complexity limit before any resolver runs (400). */
@Plugin()
export class QueryLimitsPlugin implements ApolloServerPlugin {
  async requestDidStart(): Promise<GraphQLRequestListener<Record<string, unknown>>> {
    return {
      async didResolveOperation({ request, document, schema }) {
        const error = checkQueryLimits(schema, document, request.variables, request.operationName);
        if (error) throw error;
      },
    };
  }
}
