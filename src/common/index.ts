/**
 * The common context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside common/ import each other directly, never this file.
 */
export { actingAs, asSystem, currentActor, systemCallback } from './acting-actor';
export { ACTOR_KINDS, API_ACTOR, SYSTEM_ACTOR, actorOfMetadata } from './actor';
export type { Actor } from './actor';
export { AT, KEY_ID, LATER, MODEL_CALL_ID, RUN_ID, SESSION_ID, actorView, iso, nullable, text, uuidParameter } from './api-answer-examples';
export { DocumentedAnswers, documentedAnswersOf } from './api-answers';
export type { ControllerAnswers, DocumentedAnswer, PathParameterExample } from './api-answers';
export { ApiTokenGuard, UNAUTHORIZED_MESSAGE, authorizationOf } from './auth/api-token.guard';
export type { AuthCarrier } from './auth/api-token.guard';
export { IS_PUBLIC, Public, PublicWhen } from './auth/public.decorator';
export { ApiTraceparent, TRACEPARENT_HEADER, callerTrace } from './caller-trace';
export { Contributes, contributionsTo } from './contributions';
export { cursorPageQuery } from './cursor-page';
export type { PageSize } from './cursor-page';
export { METRICS_SLOT, type MetricsContribution, ProvidesMetrics, setGaugeByStatus } from './metrics-contribution';
export { DatabaseUnreachableError, connectionFailureOf, databaseUnreachableOf } from './database-unreachable.error';
export { DomainError, httpStatusOf, InvalidInputError, NotFoundError, PayloadTooLargeError } from './domain-error';
export { DomainErrorFilter } from './domain-error.filter';
export { CLI_EVENTS, CONVERSATION, EVERY_EVENT_PROJECTIONS, RUN_TREE, TRACES, contextCatalog, decidedBy } from './event-catalog-entry';
export type { CatalogEntry, ContextCatalog } from './event-catalog-entry';
export { graphqlErrorOf } from './graphql-error';
export { expectedVersionOf } from './if-match';
export {
  MAX_JSON_DEPTH,
  MAX_STORED_DOCUMENT_BYTES,
  MAX_STORED_FIELD_BYTES,
  assertStorableJson,
  describeJsonInputProblem,
  jsonInputProblem,
} from './json-limits';
export type { JsonInputProblem } from './json-limits';
export { JsonNamingInterceptor } from './json-naming/json-naming.interceptor';
export { answerMalformedRequestsAsJson } from './malformed-http';
export { missingEntityError } from './missing-entity.error';
export { printableName } from './printable-name';
export { CLIENT_HEADER, personDecisionSource } from './request-actor';
export { jsonBodyParsers } from './request-body';
export { refuseFraming } from './request-origin/frame-refusal';
export { RefusalLog, guardWebSocketUpgrades, requestOriginMiddleware } from './request-origin/request-origin-guard';
export { RequestOriginRules } from './request-origin/request-origin-rules';
export { textOf } from './text-of';
export { ThrottledWarning } from './throttled-warning';
export { SpanIds, formatTraceparent, openTrace, parseTraceparent, traceIdOf } from './trace-context';
export type { RecordedTrace, TraceParent } from './trace-context';
export { utcTimestampParam } from './utc-timestamp';
export { ZodValidationPipe } from './zod-validation.pipe';
export { serviceVersion } from './service-version';
