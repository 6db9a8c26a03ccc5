import type { QueryBus } from '@nestjs/cqrs';
import DataLoader from 'dataloader';

/**
 * Loads are gathered until the event loop's check phase: GraphQL resolves a whole level of the tree
 * (every node's fields) in microtasks before that, so each level costs one statement per loader,
 * however many runs it has.
 */
export const batchScheduleFn = (callback: () => void) => setImmediate(callback);

/** Keys that carry arguments: loads with the same arguments share one batch query. */
export function groupedLoader<K, V>(keyOf: (key: K) => string, groupOf: (key: K) => string, load: (keys: K[]) => Promise<V[]>) {
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

/** A context's set of batch loaders: built from the query bus, once per operation. */
export type LoaderSet<T> = new (queryBus: QueryBus) => T;

/**
 * The batch loaders of one GraphQL operation (built in its context), so caching never outlives a
 * request. Each context declares its own loader set next to its resolvers; the first resolver of the
 * operation that asks for a set builds it, and every resolver after it shares that instance (and its batches).
 */
export class OperationLoaders {
  private readonly sets = new Map<LoaderSet<object>, object>();

  constructor(private readonly queryBus: QueryBus) {}

  of<T extends object>(set: LoaderSet<T>): T {
    const built = this.sets.get(set);
    if (built instanceof set) return built;
    const made = new set(this.queryBus);
    this.sets.set(set, made);
    return made;
  }
}
