import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { Logger, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { QueryBus } from '@nestjs/cqrs';
import { PauseCommandsResolver, RunPauseResolver, SessionPauseResolver } from './resolvers/pauses.resolver';
import { PausesModule } from '../pauses/pauses.module';
import { GraphQLModule, GraphQLSchemaHost } from '@nestjs/graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { type GraphQLFormattedError, GraphQLError, parse, validate } from 'graphql';
import { ApiTokenGuard, authorizationOf, UNAUTHORIZED_MESSAGE } from '../common/auth/api-token.guard';
import { httpStatusOf } from '../common/domain-error.filter';
import { graphqlErrorOf } from '../common/graphql-error';
import { jsonInputProblem } from '../common/json-limits';
import { ModelCallsModule } from '../model-calls/model-calls.module';
import type { GraphqlContext } from './graphql-context';
import { checkQueryLimits } from './query-limits';
import { jsonInputError } from './scalars';
import { QueryLimitsPlugin } from './query-limits.plugin';
import { AgentsResolver } from './resolvers/agents.resolver';
import { ApprovalsResolver } from './resolvers/approvals.resolver';
import { AuditResolver } from './resolvers/audit.resolver';
import { ModelCallsResolver, RunModelCallsResolver, SessionModelCallsResolver } from './resolvers/model-calls.resolver';
import { RunCommandsResolver } from './resolvers/run-commands.resolver';
import { RunReplaysResolver } from './resolvers/run-replays.resolver';
import { RunsResolver, RunUsageResolver, UsageCostResolver } from './resolvers/runs.resolver';
import { SessionsResolver, SessionSummaryResolver } from './resolvers/sessions.resolver';
import { SteeringResolver } from './resolvers/steering.resolver';
import { RunLoaders } from './run-loaders';

/** Every resolver of the schema: the module provides them, and the console's schema file is printed from them. */
export const GRAPHQL_RESOLVERS = [
  AgentsResolver,
  SessionsResolver,
  SessionSummaryResolver,
  RunsResolver,
  RunUsageResolver,
  UsageCostResolver,
  RunCommandsResolver,
  RunReplaysResolver,
  AuditResolver,
  ApprovalsResolver,
  ModelCallsResolver,
  SessionModelCallsResolver,
  RunModelCallsResolver,
  SteeringResolver,
  PauseCommandsResolver,
  RunPauseResolver,
  SessionPauseResolver,
];

/** Lets the GraphQL module's factory check tokens the way the REST guard does. */
@Module({ providers: [ApiTokenGuard], exports: [ApiTokenGuard] })
class GraphqlAuthModule {}

const unauthorized = () => new GraphQLError(UNAUTHORIZED_MESSAGE, { extensions: { code: 'unauthorized', statusCode: 401, http: { status: 401 } } });

interface WsContext {
  connectionParams?: Record<string, unknown>;
  extra?: { request?: GraphqlContext['req'] };
}

/**
 * GraphQL API at /graphql (code-first schema, Apollo), with graphql-ws subscriptions on the same path.
 * Same bearer token as REST: an HTTP request without it is refused whole (401, introspection included),
 * a WebSocket at connection_init (close 4403); resolvers run behind the global ApiTokenGuard as well.
 * Every operation gets its own batch loaders and must pass the depth and complexity limits.
 */
@Module({
  imports: [
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      imports: [GraphqlAuthModule],
      inject: [ApiTokenGuard, QueryBus, ModuleRef],
      useFactory: (guard: ApiTokenGuard, queryBus: QueryBus, moduleRef: ModuleRef): ApolloDriverConfig => {
        const logger = new Logger('GraphQL');
        const schema = () => moduleRef.get(GraphQLSchemaHost, { strict: false }).schema;
        return {
          path: '/graphql',
          autoSchemaFile: true,
          sortSchema: true,
          playground: false,
          introspection: true,
          autoTransformHttpErrors: false,
          includeStacktraceInErrorResponses: false,
          context: (arg: { req?: GraphqlContext['req'] } & WsContext): GraphqlContext => {
            if (arg.extra !== undefined || arg.connectionParams !== undefined) {
              return { connectionParams: arg.connectionParams ?? null, req: arg.extra?.request, loaders: new RunLoaders(queryBus) };
            }
            if (!guard.allows(authorizationOf({ req: arg.req }))) throw unauthorized();
            return { req: arg.req, loaders: new RunLoaders(queryBus) };
          },
          subscriptions: {
            'graphql-ws': {
              onConnect: (ctx) =>
                guard.allows(authorizationOf({ connectionParams: ctx.connectionParams, req: (ctx.extra as WsContext['extra'])?.request })),
              onSubscribe: (_ctx, _id, payload) => {
                // A WebSocket message has no HTTP body check in front of it: the same JSON input rules here.
                const input = jsonInputProblem(payload);
                if (input) return [jsonInputError(input)];
                let document;
                try {
                  document = parse(payload.query);
                } catch (error) {
                  return [error instanceof GraphQLError ? error : new GraphQLError(String(error))];
                }
                const errors = validate(schema(), document);
                if (errors.length > 0) return errors;
                const limit = checkQueryLimits(schema(), document, payload.variables ?? undefined, payload.operationName);
                return limit ? [limit] : undefined;
              },
            },
          },
          formatError: (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
            const original = unwrapResolverError(error);
            // Field resolvers do not pass through Nest's filters: map their errors to the same codes here.
            if (original instanceof GraphQLError || original === undefined || original === error) return formatted;
            const mapped = graphqlErrorOf(original, httpStatusOf, logger);
            return { ...formatted, message: mapped.message, extensions: { ...mapped.extensions } };
          },
        };
      },
    }),
    ModelCallsModule,
    PausesModule,
  ],
  providers: [QueryLimitsPlugin, ...GRAPHQL_RESOLVERS],
})
export class GraphqlApiModule {}
