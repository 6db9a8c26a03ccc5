/**
 * The identity context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside identity/ import each other directly, never this file.
 */
export { ACCESS_RULES, rolesAllowed } from './access-policy';
export { AccessPolicy } from './app-access-policy';
export { actorOfPrincipal } from './actor-of-principal';
export type { AccessRuleSet, AccessRules } from './access-policy';
export { CredentialStreams } from './credential-streams';
export { IdentityGuard } from './identity.guard';
export { IdentityModule } from './identity.module';
export { ApiKeysReadModel } from './keys/api-keys-read-model';
export { CreateApiKey, CreateApiKeyHandler, createApiKeySchema } from './keys/commands/create-api-key/create-api-key.command';
export { RevokeApiKey } from './keys/commands/revoke-api-key/revoke-api-key.command';
export { ApiKeysProjection } from './keys/projections/api-keys.projection';
export { ListApiKeys } from './keys/queries/list-api-keys/list-api-keys.query';
export { meOf } from './me/me-view';
export type { MeView } from './me/me-view';
export { PRINCIPAL_PROPERTY, ROLES } from './principal';
export type { Principal } from './principal';
export { PrincipalResolver } from './principal-resolver';
export { RevokeSignInSession } from './sign-in/commands/revoke-sign-in-session/revoke-sign-in-session.command';
export { ListSignInSessions } from './sign-in/queries/list-sign-in-sessions/list-sign-in-sessions.query';
export { SignInModule } from './sign-in/sign-in.module';
