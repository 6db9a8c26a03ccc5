import { Query } from '@nestjs/cqrs';
import type { RoutedRequestView } from '../list-routed-requests/list-routed-requests.query';

/**
 * Routed requests of the given kinds (tool_call.routed, permission.decided...) made in each thread or
 * by its CLI-native sub-agents, in global order; one array per thread, in thread order.
 */
export class ListThreadRequests extends Query<RoutedRequestView[][]> {
  constructor(
    readonly threadIds: readonly string[],
    readonly kinds: readonly string[],
  ) {
    super();
  }
}
