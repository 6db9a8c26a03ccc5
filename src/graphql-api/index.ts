/**
 * The graphql-api context's entry file: what other folders of src/ import from it, and only from here
 * (src/architecture.spec.ts). Files inside graphql-api/ import each other directly, never this file.
 */
export { batchScheduleFn, groupedLoader } from './batch-loaders';
export { apiBudgetFromInput, budgetFromInput, budgetLimitsOf } from './budget-input';
export { GraphqlApiModule } from './graphql-api.module';
export type { GraphqlContext } from './graphql-context';
export { AFTER_CURSOR_ARG, ListSize, inRange, presentFields, validated } from './input-validation';
export { ActorModel } from './models/actor.model';
export { BudgetLimits, RunBudgetInput } from './models/budget.model';
export { PageInfo } from './models/page-info.model';
export { nullWhenNotFound } from './null-when-not-found';
export { observableToAsyncIterator } from './observable-iterator';
export { JsonScalar, TimestampScalar } from './scalars';
