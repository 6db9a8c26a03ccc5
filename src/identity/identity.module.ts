import { Global, Module } from '@nestjs/common';
import { APP_INTERCEPTOR, DiscoveryModule } from '@nestjs/core';
import { AccessPolicy } from './app-access-policy';
import { IdentityAccess } from './identity.access';
import { ActingActorInterceptor } from './acting-actor.interceptor';
import { CredentialStreams } from './credential-streams';
import { CredentialStreamsInterceptor } from './credential-streams.interceptor';
import { IdentityGuard } from './identity.guard';
import { ApiKeysController } from './keys/api-keys.controller';
import { ApiKeysReadModel } from './keys/api-keys-read-model';
import { CreateApiKeyHandler } from './keys/commands/create-api-key/create-api-key.command';
import { RevokeApiKeyHandler } from './keys/commands/revoke-api-key/revoke-api-key.command';
import { ApiKeysProjection } from './keys/projections/api-keys.projection';
import { ListApiKeysHandler } from './keys/queries/list-api-keys/list-api-keys.query';
import { MeController } from './me/me.controller';
import { PrincipalResolver } from './principal-resolver';

/**
 * issue 27: who calls. Resolves the principal of every request (bootstrap token, contributed sign-in
 * methods, else today's open loopback as a local admin) through the global IdentityGuard, and answers
 * GET /api/me; runs every handler as its caller's actor (`ActingActorInterceptor`); named API keys (`api_key-<id>` streams, `api_keys`);
 * closes the open streams (SSE, graphql-ws) of a key or sign-in session that ends (`CredentialStreams`).
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  controllers: [MeController, ApiKeysController],
  providers: [
    { provide: APP_INTERCEPTOR, useClass: ActingActorInterceptor },
    { provide: APP_INTERCEPTOR, useClass: CredentialStreamsInterceptor },
    PrincipalResolver,
    CredentialStreams,
    AccessPolicy,
    IdentityAccess,
    IdentityGuard,
    ApiKeysReadModel,
    ApiKeysProjection,
    CreateApiKeyHandler,
    RevokeApiKeyHandler,
    ListApiKeysHandler,
  ],
  exports: [PrincipalResolver, IdentityGuard, CredentialStreams, AccessPolicy],
})
export class IdentityModule {}
