import type { AuthCarrier } from '../common/auth/api-token.guard';
import type { RunLoaders } from './run-loaders';

/** What every resolver gets: how the caller authenticated, and this operation's batch loaders. */
export interface GraphqlContext extends AuthCarrier {
  loaders: RunLoaders;
}
