import { ApolloDriver, type ApolloDriverConfig } from '@nestjs/apollo';
import { HttpException, Logger, Module } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { QueryBus } from '@nestjs/cqrs';
import { GraphQLModule, GraphQLSchemaHost } from '@nestjs/graphql';
import { unwrapResolverError } from '@apollo/server/errors';
import { type GraphQLFormattedError, GraphQLError, parse, validate } from 'graphql';
import { authorizationOf, UNAUTHORIZED_MESSAGE, httpStatusOf, graphqlErrorOf, databaseUnreachableOf, jsonInputProblem } from '../common';
import { PRINCIPAL_PROPERTY, type Principal, PrincipalResolver, CredentialStreams } from '../identity';
import type { GraphqlContext } from './graphql-context';
import { checkQueryLimits } from './query-limits';
import { jsonInputError } from './scalars';
import { QueryLimitsPlugin } from './query-limits.plugin';
import { ApiKeysResolver } from './resolvers/api-keys.resolver';
import { MeResolver } from './resolvers/me.resolver';
import { SignInSessionsResolver } from './resolvers/sign-in-sessions.resolver';
import { OperationLoaders } from './batch-loaders';

/**
 * The resolvers the kernel keeps: who is calling (`me`), their keys and sign-in sessions. They stay here
 * because the kernel authenticates through identity (principals, credential streams), so identity cannot
 * import the kernel back. Every other context provides its own resolvers from its own module (`src/<context>/graphql/`).
 */
export const KERNEL_RESOLVERS = [MeResolver, ApiKeysResolver, SignInSessionsResolver];

const unauthorized = () => new GraphQLError(UNAUTHORIZED_MESSAGE, { extensions: { code: 'unauthorized', statusCode: 401, http: { status: 401 } } });

const authLogger = new Logger('GraphqlAuth');

/**
 * A failure to authenticate as the GraphQL error that says so: a sign-in method's refusal (an ended
 * sign-in, a cross-site cookie) with its code, a lost database (a key or sign-in read) as the retryable
 * 503 `database_unavailable` REST answers too, never an internal error.
 */
function asGraphqlError(refusal: unknown): unknown {
  if (refusal instanceof GraphQLError) return refusal;
  const unreachable = refusal instanceof HttpException ? undefined : databaseUnreachableOf(refusal);
  const mapped = graphqlErrorOf(unreachable ?? refusal, httpStatusOf, authLogger);
  // Raised while the context is made, before any resolver: the HTTP answer carries the status too.
  const status = typeof mapped.extensions.statusCode === 'number' ? mapped.extensions.statusCode : 500;
  return new GraphQLError(mapped.message, { extensions: { ...mapped.extensions, http: { status } } });
}

interface WsContext {
  connectionParams?: Record<string, unknown>;
  extra?: { request?: GraphqlContext['req']; socket?: WsSocket; [PRINCIPAL_PROPERTY]?: Principal };
}

/** The `ws` socket graphql-ws serves a connection on: what is closed when its credential ends. */
interface WsSocket {
  close(code: number, reason: string): void;
  once(event: 'close', listener: () => void): unknown;
}

/** graphql-ws's close code for an unauthorized connection: the credential it was opened with has ended (issue 39). */
export const CREDENTIAL_ENDED_CLOSE_CODE = 4401;

/** A WebSocket close reason is at most 123 bytes of UTF-8: the message, cut at a character boundary. */
export function closeReasonOf(message: string): string {
  let reason = message;
  while (Buffer.byteLength(reason, 'utf8') > 123) reason = `${[...reason].slice(0, -2).join('')}…`;
  return reason;
}

/**
 * GraphQL API at /graphql (code-first schema, Apollo), with graphql-ws subscriptions on the same path.
 * Same principals as REST (IdentityModule): an HTTP request without it is refused whole (401, introspection included),
 * a WebSocket at connection_init (close 4403), the principal found then rides on the context; resolvers run behind the global IdentityGuard as well.
 * Every operation gets its own batch loaders and must pass the depth and complexity limits.
 * The server only: each context's module provides its resolvers, which Nest finds among every provider of the app.
 */
@Module({
  imports: [
    GraphQLModule.forRootAsync<ApolloDriverConfig>({
      driver: ApolloDriver,
      inject: [PrincipalResolver, QueryBus, ModuleRef, CredentialStreams],
      useFactory: (principals: PrincipalResolver, queryBus: QueryBus, moduleRef: ModuleRef, streams: CredentialStreams): ApolloDriverConfig => {
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
          context: async (arg: { req?: GraphqlContext['req'] } & WsContext): Promise<GraphqlContext> => {
            if (arg.extra !== undefined || arg.connectionParams !== undefined) {
              return {
                connectionParams: arg.connectionParams ?? null,
                req: arg.extra?.request,
                [PRINCIPAL_PROPERTY]: arg.extra?.[PRINCIPAL_PROPERTY],
                loaders: new OperationLoaders(queryBus),
              };
            }
            // The resolver's own 401 (its message, and details.signIn where people sign in) reaches the console.
            const principal = await principals.principalOf({ headers: arg.req?.headers ?? {} }).catch((refusal: unknown) => {
              throw asGraphqlError(refusal);
            });
            return { req: arg.req, [PRINCIPAL_PROPERTY]: principal, loaders: new OperationLoaders(queryBus) };
          },
          subscriptions: {
            'graphql-ws': {
              onConnect: async (ctx) => {
                const extra = ctx.extra as NonNullable<WsContext['extra']>;
                const carrier = { connectionParams: ctx.connectionParams, req: extra?.request };
                // A refused cookie closes the socket like a missing token (4403), not as a server error.
                const principal = await principals
                  .principalOrNone({ headers: extra?.request?.headers ?? {} }, authorizationOf(carrier))
                  .catch(() => undefined);
                if (!principal) return false;
                extra[PRINCIPAL_PROPERTY] = principal;
                // A key or sign-in session that ends closes the socket, and with it every subscription on it.
                const socket = extra.socket;
                if (socket && principal.credential) {
                  const release = streams.open(principal, { end: (ending) => socket.close(CREDENTIAL_ENDED_CLOSE_CODE, closeReasonOf(ending.message)) });
                  socket.once('close', release);
                }
                return true;
              },
              onSubscribe: async (ctx, _id, payload) => {
                // Each new operation asks again: a sign-in session or key ended since the socket opened starts nothing more.
                const extra = ctx.extra as NonNullable<WsContext['extra']>;
                try {
                  extra[PRINCIPAL_PROPERTY] = await principals.principalOf(
                    { headers: extra?.request?.headers ?? {} },
                    authorizationOf({ connectionParams: ctx.connectionParams, req: extra?.request }),
                  );
                } catch (refusal) {
                  const error = asGraphqlError(refusal);
                  return [error instanceof GraphQLError ? error : unauthorized()];
                }
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
  ],
  providers: [QueryLimitsPlugin, ...KERNEL_RESOLVERS],
})
export class GraphqlApiModule {}
