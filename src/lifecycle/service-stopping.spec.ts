import { firstValueFrom, toArray } from 'rxjs';
import { ServiceStopping } from './service-stopping';

describe('ServiceStopping', () => {
  it('signals once when the service begins to stop, and at once to whoever subscribes after', async () => {
    const stopping = new ServiceStopping();
    let signals = 0;
    stopping.signal.subscribe(() => signals++);
    expect(signals).toBe(0);

    stopping.begin();
    stopping.onModuleDestroy(); // the fallback hook, later in the same stop
    expect(signals).toBe(1);
    // A stream opened during the stop ends straight away.
    await expect(firstValueFrom(stopping.signal.pipe(toArray()))).resolves.toEqual([undefined]);
  });
});
