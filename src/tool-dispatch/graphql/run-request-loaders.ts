import type { QueryBus } from '@nestjs/cqrs';
import DataLoader from 'dataloader';
import { batchScheduleFn } from '../../graphql-api';
import type { RoutedRequestView } from '../queries/list-routed-requests/list-routed-requests.query';
import { ListThreadRequests } from '../queries/list-thread-requests/list-thread-requests.query';

export const TOOL_CALL_KINDS = ['tool_call.routed', 'tool_call.denied'] as const;
export const PERMISSION_KINDS = ['permission.decided'] as const;

/** The routed requests of runs' threads, for one GraphQL operation (`loaders.of(RunRequestLoaders)`). */
export class RunRequestLoaders {
  readonly toolCalls: DataLoader<string, RoutedRequestView[]>;
  readonly permissionDecisions: DataLoader<string, RoutedRequestView[]>;

  constructor(queryBus: QueryBus) {
    this.toolCalls = new DataLoader((threads) => queryBus.execute(new ListThreadRequests(threads, TOOL_CALL_KINDS)), { batchScheduleFn });
    this.permissionDecisions = new DataLoader((threads) => queryBus.execute(new ListThreadRequests(threads, PERMISSION_KINDS)), {
      batchScheduleFn,
    });
  }
}
