import { Observable, Subject } from 'rxjs';
import { observableToAsyncIterator } from './observable-iterator';

describe('observableToAsyncIterator', () => {
  it('hands out values emitted before and after they are pulled, in order', async () => {
    const subject = new Subject<number>();
    const iterator = observableToAsyncIterator(subject);
    const pulledEarly = iterator.next();
    subject.next(1);
    subject.next(2);
    subject.next(3);
    expect(await pulledEarly).toEqual({ value: 1, done: false });
    expect(await iterator.next()).toEqual({ value: 2, done: false });
    expect(await iterator.next()).toEqual({ value: 3, done: false });
  });

  it('unsubscribes from the source on return() and ends pending pulls', async () => {
    let unsubscribed = false;
    const source = new Observable<number>(() => () => (unsubscribed = true));
    const iterator = observableToAsyncIterator(source);
    const pending = iterator.next();
    await iterator.return!();
    expect(unsubscribed).toBe(true);
    expect(await pending).toEqual({ value: undefined, done: true });
    expect(await iterator.next()).toEqual({ value: undefined, done: true });
  });

  it('ends after the queued values when the source completes, and rejects when it fails', async () => {
    const completed = observableToAsyncIterator(new Observable<number>((s) => (s.next(7), s.complete())));
    expect(await completed.next()).toEqual({ value: 7, done: false });
    expect(await completed.next()).toEqual({ value: undefined, done: true });

    const failed = observableToAsyncIterator(new Observable<number>((s) => s.error(new Error('boom'))));
    await expect(failed.next()).rejects.toThrow('boom');
  });
});
