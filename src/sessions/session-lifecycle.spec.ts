import { Subject } from 'rxjs';
import { openTestEventStore, type TestEventStore } from '../../test/fixtures/event-store-fixture';
import type { CliSessionEvent, CopilotCliConnection } from '../copilot-cli';
import type { SwitchboardConfig } from '../config';
import { sessionStreamId } from '../event-store';
import { LiveSession } from './live-session';
import type { SessionConfig } from './session-config';
import { SessionLifecycle } from './session-lifecycle';
import { SessionRegistry } from './session-registry';

const config: SessionConfig = { model: 'm', tools: [], customAgents: [], permissionPolicy: { allowKinds: [], approveOwnTools: true }, subAgents: [] };

/** One check phase of the event loop: what the store flushes "at once" is committed by then; a delayed flush is not. */
const checkPhase = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('SessionLifecycle recording the CLI events of a turn (issue 41)', () => {
  let opened: TestEventStore;
  let lifecycle: SessionLifecycle;
  let events: Subject<CliSessionEvent>;

  beforeEach(() => {
    opened = openTestEventStore();
    events = new Subject<CliSessionEvent>();
    const registry = new SessionRegistry();
    registry.add(new LiveSession('s1', config, 'running', 1));
    const cli = { events$: events } as Pick<CopilotCliConnection, 'events$'>;
    const settings = { cli: {} } as Pick<SwitchboardConfig, 'cli'>;
    // Only the recording path is exercised: what the rest of the lifecycle needs (read model, lease, team) is never reached.
    lifecycle = new SessionLifecycle(
      cli as CopilotCliConnection,
      opened.store,
      registry,
      undefined as never,
      undefined as never,
      undefined as never,
      undefined as never,
      undefined as never,
      settings as SwitchboardConfig,
      undefined as never,
    );
    events.subscribe((event) => lifecycle['record'](event));
  });

  afterEach(() => opened.close());

  const cliEvent = (type: string, ephemeral = false): CliSessionEvent => ({
    sessionId: 's1',
    event: { type, id: `${type}-id`, timestamp: new Date().toISOString(), ephemeral, data: {} },
  });

  it("commits a turn's records after a few ms, to share a commit with the rest of the burst", async () => {
    events.next(cliEvent('assistant.message'));
    await checkPhase();
    expect(await opened.store.streamVersion(sessionStreamId('s1'))).toBe(0);
  });

  it("commits the turn's end (session.idle) at once, and the records queued before it with it, in order", async () => {
    events.next(cliEvent('assistant.message'));
    events.next(cliEvent('session.idle', true));
    await checkPhase();
    const stored = await opened.store.readStream(sessionStreamId('s1'));
    expect(stored.map((e) => e.type)).toEqual(['cli.assistant.message', 'cli.session.idle']);
  });
});
