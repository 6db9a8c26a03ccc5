import type { Observable, Subscription } from 'rxjs';

/**
 * An rxjs Observable as the AsyncIterator a GraphQL subscription resolver returns. Values are queued
 * until pulled; `return()` (the client unsubscribed or disconnected) unsubscribes from the source.
 */
export function observableToAsyncIterator<T>(source: Observable<T>): AsyncIterableIterator<T> {
  const queue: T[] = [];
  const waiting: Array<{ resolve(result: IteratorResult<T>): void; reject(error: unknown): void }> = [];
  let failure: { error: unknown } | undefined;
  let done = false;

  const finish = () => {
    done = true;
    subscription?.unsubscribe();
    waiting.splice(0).forEach((w) => w.resolve({ value: undefined, done: true }));
  };
  const subscription: Subscription = source.subscribe({
    next: (value) => {
      const next = waiting.shift();
      if (next) next.resolve({ value, done: false });
      else queue.push(value);
    },
    error: (error) => {
      failure = { error };
      const next = waiting.shift();
      if (next) next.reject(error);
      done = true;
    },
    complete: () => {
      done = true;
      if (queue.length === 0) waiting.splice(0).forEach((w) => w.resolve({ value: undefined, done: true }));
    },
  });
  if (done) subscription.unsubscribe();

  return {
    next(): Promise<IteratorResult<T>> {
      if (queue.length > 0) return Promise.resolve({ value: queue.shift() as T, done: false });
      if (failure) {
        const { error } = failure;
        failure = undefined;
        return Promise.reject(error);
      }
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    return(): Promise<IteratorResult<T>> {
      queue.length = 0;
      finish();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(error?: unknown): Promise<IteratorResult<T>> {
      finish();
      return Promise.reject(error);
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
