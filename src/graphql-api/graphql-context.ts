import type { AuthCarrier } from '../common';
import type { Principal } from '../identity';
import type { OperationLoaders } from './batch-loaders';

/** What every resolver gets: how the caller authenticated, and this operation's batch loaders. */
export interface GraphqlContext extends AuthCarrier {
  /** Who calls: set when the operation is authenticated (context factory, graphql-ws connection, or the guard). */
  principal?: Principal;
  loaders: OperationLoaders;
}
