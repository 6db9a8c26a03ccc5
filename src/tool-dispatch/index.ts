/**
 * The tool-dispatch context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside tool-dispatch/ import each other directly, never this file.
 */
export { RoutedRequestsProjection } from './projections/routed-requests.projection';
export { RoutedRequestEvents, readRoutedRequestEvent } from './routed-request.events';
export type { HookInvocationArguments } from './routed-request.events';
export { ToolDispatchModule } from './tool-dispatch.module';
export { AnswerUserInput } from './commands/answer-user-input/answer-user-input.command';
export { ListPendingUserInput } from './queries/list-pending-user-input/list-pending-user-input.query';
