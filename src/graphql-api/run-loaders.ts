import type { QueryBus } from '@nestjs/cqrs';
import DataLoader from 'dataloader';
import { ListStreamsEvents } from '../event-log/queries/list-streams-events/list-streams-events.query';
import type { StoredEvent } from '../event-store/event-store.types';
import { GetRunSubtrees } from '../run-lineage/queries/get-run-subtrees/get-run-subtrees.query';
import { GetRunsById } from '../run-lineage/queries/get-runs-by-id/get-runs-by-id.query';
import { GetSubtreeSpend } from '../run-lineage/queries/get-subtree-spend/get-subtree-spend.query';
import { GetSubtreeUsage } from '../run-lineage/queries/get-subtree-usage/get-subtree-usage.query';
import { ListRunChildren } from '../run-lineage/queries/list-run-children/list-run-children.query';
import { GetModelCallBodies } from '../model-calls/queries/get-model-call-bodies/get-model-call-bodies.query';
import { GetModelCallSpend } from '../model-calls/queries/get-model-call-spend/get-model-call-spend.query';
import { ListModelCallsOfRuns } from '../model-calls/queries/list-model-calls-of-runs/list-model-calls-of-runs.query';
import type { ModelCallBodies, ModelCallPage } from '../model-calls/model-call-view';
import type { ModelCallSpendView, RunCallsKey, SpendKey } from '../model-calls/model-calls-read-model';
import { ListThreadRequests } from '../tool-dispatch/queries/list-thread-requests/list-thread-requests.query';
import { ListThreadSubagents, type SubagentInstanceRow } from '../sessions/queries/list-thread-subagents/list-thread-subagents.query';
import type { RunRow, RunUsage } from '../run-lineage/run-lineage';
import type { SubtreeSpend } from '../run-lineage/runs-read-model';
import type { RoutedRequestView } from '../tool-dispatch/queries/list-routed-requests/list-routed-requests.query';

export const TOOL_CALL_KINDS = ['tool_call.routed', 'tool_call.denied'] as const;
export const PERMISSION_KINDS = ['permission.decided'] as const;

/**
 * Loads are gathered until the event loop's check phase: GraphQL resolves a whole level of the tree
 * (every node's fields) in microtasks before that, so each level costs one statement per loader,
 * however many runs it has.
 */
const batchScheduleFn = (callback: () => void) => setImmediate(callback);

/** Keys that carry arguments: loads with the same arguments share one batch query. */
function groupedLoader<K, V>(keyOf: (key: K) => string, groupOf: (key: K) => string, load: (keys: K[]) => Promise<V[]>) {
  return new DataLoader<K, V, string>(
    async (keys) => {
      const groups = new Map<string, number[]>();
      keys.forEach((key, i) => {
        const group = groupOf(key);
        groups.set(group, [...(groups.get(group) ?? []), i]);
      });
      const results = new Array<V>(keys.length);
      await Promise.all(
        [...groups.values()].map(async (indexes) => {
          const values = await load(indexes.map((i) => keys[i]));
          indexes.forEach((index, j) => (results[index] = values[j]));
        }),
      );
      return results;
    },
    { cacheKeyFn: keyOf, batchScheduleFn },
  );
}

export interface SubtreeKey {
  path: string;
  depth: number;
  maxDepth?: number;
  limit: number;
}

export interface EventsKey {
  streamIds: string[];
  after: number;
  limit: number;
}

export interface RunModelCallsKey extends RunCallsKey {
  limit: number;
}

/** One set per GraphQL operation (built in its context), so caching never outlives a request. */
export class RunLoaders {
  readonly runById: DataLoader<string, RunRow | null>;
  readonly children: DataLoader<{ runId: string; first: number }, RunRow[], string>;
  readonly subtree: DataLoader<SubtreeKey, RunRow[], string>;
  readonly subtreeUsage: DataLoader<string, RunUsage>;
  /** What a subtree spent against its budget (running launches counted up to now). */
  readonly subtreeSpend: DataLoader<string, SubtreeSpend>;
  readonly subagents: DataLoader<string, SubagentInstanceRow[]>;
  readonly toolCalls: DataLoader<string, RoutedRequestView[]>;
  readonly permissionDecisions: DataLoader<string, RoutedRequestView[]>;
  readonly events: DataLoader<EventsKey, StoredEvent[], string>;
  /** A page of each run's model calls (own or subtree): one statement per tree level and page size. */
  readonly runModelCalls: DataLoader<RunModelCallsKey, ModelCallPage, string>;
  readonly modelCallSpend: DataLoader<SpendKey, ModelCallSpendView, string>;
  /** Kept request and answer of each call, read off the calls' streams only when a query asks for them. */
  readonly modelCallBodies: DataLoader<string, ModelCallBodies>;

  constructor(queryBus: QueryBus) {
    this.runById = new DataLoader(
      async (ids) => {
        const rows = await queryBus.execute(new GetRunsById(ids));
        const byId = new Map(rows.map((row) => [row.runId, row]));
        return ids.map((id) => byId.get(id) ?? null);
      },
      { batchScheduleFn },
    );
    this.children = groupedLoader(
      (key) => `${key.first}:${key.runId}`,
      (key) => String(key.first),
      (keys) =>
        queryBus.execute(
          new ListRunChildren(
            keys.map((k) => k.runId),
            keys[0].first,
          ),
        ),
    );
    this.subtree = groupedLoader(
      (key) => JSON.stringify([key.path, key.maxDepth ?? null, key.limit]),
      () => 'all',
      (keys) => queryBus.execute(new GetRunSubtrees(keys)),
    );
    this.subtreeUsage = new DataLoader((paths) => queryBus.execute(new GetSubtreeUsage(paths)), { batchScheduleFn });
    this.subtreeSpend = new DataLoader((paths) => queryBus.execute(new GetSubtreeSpend(paths)), { batchScheduleFn });
    this.subagents = new DataLoader((threads) => queryBus.execute(new ListThreadSubagents(threads)), { batchScheduleFn });
    this.toolCalls = new DataLoader((threads) => queryBus.execute(new ListThreadRequests(threads, TOOL_CALL_KINDS)), { batchScheduleFn });
    this.permissionDecisions = new DataLoader((threads) => queryBus.execute(new ListThreadRequests(threads, PERMISSION_KINDS)), {
      batchScheduleFn,
    });
    this.events = groupedLoader(
      (key) => JSON.stringify([key.streamIds, key.after, key.limit]),
      () => 'all',
      (keys) => queryBus.execute(new ListStreamsEvents(keys)),
    );
    this.runModelCalls = groupedLoader(
      (key) => JSON.stringify([key.runId, key.subtreePath ?? null, key.after ?? null, key.limit]),
      (key) => String(key.limit),
      (keys) =>
        queryBus.execute(
          new ListModelCallsOfRuns(
            keys.map(({ limit: _limit, ...key }) => key),
            keys[0].limit,
          ),
        ),
    );
    this.modelCallSpend = new DataLoader((keys) => queryBus.execute(new GetModelCallSpend(keys)), {
      cacheKeyFn: (key) => JSON.stringify(key),
      batchScheduleFn,
    });
    this.modelCallBodies = new DataLoader((ids) => queryBus.execute(new GetModelCallBodies(ids)), { batchScheduleFn });
  }
}
