/**
 * The delegation context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside delegation/ import each other directly, never this file.
 */
export { RunOrigin, StartRun } from './commands/start-run/start-run.command';
export { DelegationModule } from './delegation.module';
export { runOf } from './graphql/runs.resolver';
export { RunsProjection } from './projections/runs.projection';
export { BudgetExceededError, InvalidRunArgumentsError, PolicyDeniedError, UnknownAgentError } from './run.errors';
export { RUN_STATUSES, RUN_STREAM_EVENT_TYPES, RunEvents, readRunEvent } from './run.events';
export type { RunEvent, RunReplay, RunStatus, StoppedBy } from './run.events';
export { StopRun } from './commands/stop-run/stop-run.command';
export { SteerRun } from './commands/steer-run/steer-run.command';
export { GetRun } from './queries/get-run/get-run.query';
export type { SingleRunView } from './queries/get-run/get-run.query';
export { WatchRunEvents } from './queries/watch-run-events/watch-run-events.query';
export { API_CALLER } from './run-caller';
export { progressOf } from './mcp/run-progress';
export { boundTranscript } from './fork-context';
export type { ForkedMessage } from './fork-context';
export { toRunView } from './run-view';
export type { RunView } from './run-view';
