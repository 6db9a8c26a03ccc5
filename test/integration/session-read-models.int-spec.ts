import { Logger } from '@nestjs/common';
import { ChildSessionRouting } from '../../src/child-sessions/child-session-routing';
import { resolverErrors } from '../../src/child-sessions/child-session-resolver';
import { CopilotCliConnection } from '../../src/copilot-cli/copilot-cli-connection';
import { LiveSession } from '../../src/sessions/live-session';
import { LiveSessionLookup } from '../../src/sessions/live-session-lookup';
import { GetSession } from '../../src/sessions/queries/get-session/get-session.query';
import { GetSessionHandler } from '../../src/sessions/queries/get-session/get-session.handler';
import { ListSessions } from '../../src/sessions/queries/list-sessions/list-sessions.query';
import { ListSessionsHandler } from '../../src/sessions/queries/list-sessions/list-sessions.handler';
import type { SessionConfig } from '../../src/sessions/session-config';
import { SessionNotFoundError, SessionNotLiveError } from '../../src/sessions/session.errors';
import { SessionRegistry } from '../../src/sessions/session-registry';
import { SubagentLaunchesReadModel } from '../../src/sessions/subagent-launches-read-model';
import { openTestEventStore, type TestEventStore } from '../fixtures/event-store-fixture';
import { openLiveSessionLookup } from '../fixtures/live-session-lookup';
import { type ReadModelTarget, readModelTargets } from '../fixtures/read-model-targets';
import { makeTempDir } from '../fixtures/temp-dir';
import { testConfig } from '../fixtures/test-config';

jest.setTimeout(120_000);
// The reload logs each child it puts back: quiet unless asked for, as the app is in tests.
if (!process.env.SWITCHBOARD_TEST_LOGS) Logger.overrideLogger(false);

const config = (extra: Partial<SessionConfig> = {}): SessionConfig => ({
  model: 'gpt-4.1',
  tools: [],
  customAgents: [],
  permissionPolicy: { allowKinds: [], approveOwnTools: true },
  subAgents: [],
  ...extra,
});

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

/** A 2^40 value: positions, tokens and durations past 32 bits come back as numbers on both. */
const BIG = 2 ** 40;

/**
 * spec: issue 15. The sessions context's read side (GET and list, the live-session lookup, the child
 * mapping reload) is one code path over ReadModelDatabase: the same rows answer the same on SQLite and
 * on PostgreSQL, each on a fresh, migrated database.
 */
describe.each(readModelTargets())('session read models on %s', (_name, open) => {
  let side: ReadModelTarget;

  beforeEach(async () => {
    side = await open();
  });

  afterEach(async () => {
    await side?.close();
  });

  async function insertSession(sessionId: string, fields: { status?: string; createdAt?: string; config?: SessionConfig; statusReason?: string }) {
    const { orm, tables } = side.db;
    await orm.insert(tables.sessions).values({
      sessionId,
      status: fields.status ?? 'idle',
      model: 'gpt-4.1',
      config: JSON.stringify(fields.config ?? config()),
      protocolVersion: 3,
      statusReason: fields.statusReason ?? null,
      lastPosition: BIG,
      createdAt: fields.createdAt ?? at(0),
      updatedAt: at(59),
    });
  }

  async function insertLaunch(parentSessionId: string, toolCallId: string, fields: { status?: string; startedAt?: string; childSessionId?: string } = {}) {
    const { orm, tables } = side.db;
    const ended = fields.status !== undefined && fields.status !== 'running';
    await orm.insert(tables.subagentInstances).values({
      parentSessionId,
      toolCallId,
      agentName: 'researcher',
      childSessionId: fields.childSessionId ?? `child-${toolCallId}`,
      status: fields.status ?? 'running',
      error: fields.status === 'failed' ? 'boom' : null,
      startedAt: fields.startedAt ?? at(1),
      endedAt: ended ? at(30) : null,
      totalTokens: ended ? BIG + 1 : null,
      totalToolCalls: ended ? 7 : null,
      durationMs: ended ? BIG + 2 : null,
    });
  }

  async function insertChild(childSessionId: string, parentSessionId: string, agentName = 'researcher') {
    const { orm, tables } = side.db;
    await orm.insert(tables.childSessions).values({ childSessionId, parentSessionId, agentName, via: 'agentId', mappedAt: at(1) });
  }

  const live = (sessionId: string) => new LiveSession(sessionId, config(), 'idle', 1);

  describe('ListSessions', () => {
    beforeEach(async () => {
      await insertSession('s-old', { createdAt: at(1), status: 'destroyed', config: config({ agentId: 'writer', subAgents: ['critic', 'editor'] }) });
      // Created in the same millisecond, with ids that differ where the collations do: byte order puts
      // "a-c" before "a1" before "ab"; a locale that skips punctuation puts "ab" before "a-c".
      await insertSession('a-c', { createdAt: at(2), status: 'idle' });
      await insertSession('ab', { createdAt: at(2), status: 'interrupted', statusReason: 'CLI exited' });
      await insertSession('a1', { createdAt: at(2), status: 'idle' });
      await insertSession('s-new', { createdAt: at(3), status: 'idle', config: config({ agentId: 'planner' }) });
    });

    const list = (status: string | undefined, limit: number) =>
      new ListSessionsHandler(side.db).execute(new ListSessions({ status, includeRunSessions: true }, limit));

    it('lists newest first, ties by id in byte order, with the agent and sub-agents picked from the config', async () => {
      const { sessions } = await list(undefined, 50);
      expect(sessions).toEqual([
        {
          sessionId: 's-new',
          status: 'idle',
          statusReason: null,
          model: 'gpt-4.1',
          agentId: 'planner',
          subAgents: [],
          title: null,
          preview: null,
          runId: null,
          createdAt: at(3),
          updatedAt: at(59),
        },
        expect.objectContaining({ sessionId: 'ab', status: 'interrupted', statusReason: 'CLI exited', agentId: null, subAgents: [] }),
        expect.objectContaining({ sessionId: 'a1', agentId: null }),
        expect.objectContaining({ sessionId: 'a-c', agentId: null }),
        expect.objectContaining({ sessionId: 's-old', status: 'destroyed', agentId: 'writer', subAgents: ['critic', 'editor'] }),
      ]);
    });

    it('cuts the page at the limit, between sessions created in the same millisecond', async () => {
      expect((await list(undefined, 2)).sessions.map((s) => s.sessionId)).toEqual(['s-new', 'ab']);
      expect((await list(undefined, 3)).sessions.map((s) => s.sessionId)).toEqual(['s-new', 'ab', 'a1']);
    });

    it('filters by status, limit included', async () => {
      expect((await list('idle', 50)).sessions.map((s) => s.sessionId)).toEqual(['s-new', 'a1', 'a-c']);
      expect((await list('idle', 1)).sessions.map((s) => s.sessionId)).toEqual(['s-new']);
      expect((await list('destroyed', 50)).sessions.map((s) => s.sessionId)).toEqual(['s-old']);
      expect((await list('failed', 50)).sessions).toEqual([]);
    });
  });

  describe('GetSession', () => {
    const settings = testConfig('/srv/switchboard-test');
    const get = (sessionId: string) => new GetSessionHandler(side.db, settings).execute(new GetSession(sessionId));

    it('answers the row, its parsed config and its launches in start order (ties by tool call, byte order), counts past 32 bits', async () => {
      await insertSession('s-1', { config: config({ agentId: 'writer', subAgents: ['critic'] }) });
      await insertSession('s-2', {});
      await insertLaunch('s-1', 'ab', { startedAt: at(5), status: 'completed' });
      await insertLaunch('s-1', 'a-c', { startedAt: at(5), status: 'failed' });
      await insertLaunch('s-1', 'tc-0', { startedAt: at(2) });
      await insertLaunch('s-2', 'tc-other', { startedAt: at(1) });

      const view = await get('s-1');

      expect(view).toEqual({
        sessionId: 's-1',
        status: 'idle',
        statusReason: null,
        model: 'gpt-4.1',
        protocolVersion: 3,
        config: config({ agentId: 'writer', subAgents: ['critic'] }),
        workingDirectory: '/srv/switchboard-test/workspace',
        agentId: 'writer',
        subAgents: ['critic'],
        title: null,
        preview: null,
        runId: null,
        delegation: false,
        permissionPolicy: config({}).permissionPolicy,
        lastPosition: BIG,
        createdAt: at(0),
        updatedAt: at(59),
        subAgentLaunches: [
          {
            toolCallId: 'tc-0',
            agentName: 'researcher',
            childSessionId: 'child-tc-0',
            status: 'running',
            error: null,
            startedAt: at(2),
            endedAt: null,
            totalTokens: null,
            totalToolCalls: null,
            durationMs: null,
          },
          expect.objectContaining({ toolCallId: 'a-c', status: 'failed', error: 'boom', totalTokens: BIG + 1, totalToolCalls: 7, durationMs: BIG + 2 }),
          expect.objectContaining({ toolCallId: 'ab', status: 'completed', error: null, endedAt: at(30) }),
        ],
      });
      expect((await get('s-2')).subAgentLaunches.map((s) => s.toolCallId)).toEqual(['tc-other']);
    });

    it('refuses an unknown session with not_found', async () => {
      const error = await get('nope').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SessionNotFoundError);
      expect(error).toMatchObject({ code: 'not_found', message: 'Session nope does not exist' });
    });
  });

  describe('LiveSessionLookup', () => {
    let registry: SessionRegistry;
    let lookup: LiveSessionLookup;
    let log: TestEventStore;
    let tmp: { dir: string; cleanup(): void };

    beforeEach(async () => {
      tmp = makeTempDir('switchboard-session-lookup-');
      log = openTestEventStore();
      ({ lookup, registry } = await openLiveSessionLookup(testConfig(tmp.dir), side.db, log.store));
    });

    afterEach(() => {
      log?.close();
      tmp?.cleanup();
    });

    it('answers the live session from memory, 404 for an unknown one, 409 naming the status of one that is not live', async () => {
      const session = live('s-live');
      registry.add(session);
      await insertSession('s-gone', { status: 'destroyed', statusReason: 'by the user' });
      await insertSession('s-failed', { status: 'failed' });

      await expect(lookup.get('s-live')).resolves.toBe(session);
      await expect(lookup.get('nope')).rejects.toThrow(SessionNotFoundError);
      const gone = await lookup.get('s-gone').catch((e: unknown) => e);
      expect(gone).toBeInstanceOf(SessionNotLiveError);
      expect(gone).toMatchObject({
        code: 'invalid_state',
        message: 'Session s-gone is destroyed (by the user); create a new session',
        details: { sessionId: 's-gone', status: 'destroyed', reason: 'by the user' },
      });
      await expect(lookup.get('s-failed')).rejects.toMatchObject({ code: 'invalid_state', message: 'Session s-failed is failed; create a new session' });
    });

    it('answers a session registered while its row was read as live, not a 409 naming the row', async () => {
      await insertSession('s-starting', { status: 'starting' });
      const looking = lookup.get('s-starting');
      // The create's registration, landing while the lookup waits for the read model.
      const session = live('s-starting');
      registry.add(session);
      await expect(looking).resolves.toBe(session);
    });
  });

  describe('ChildSessionRouting reload', () => {
    let registry: SessionRegistry;
    let routing: ChildSessionRouting;
    // Its other parts, real but idle: resolve reads the read models only (the log takes subagent.* records).
    let log: TestEventStore;
    let tmp: { dir: string; cleanup(): void };

    beforeEach(async () => {
      tmp = makeTempDir('switchboard-session-reads-');
      log = openTestEventStore();
      registry = new SessionRegistry();
      routing = new ChildSessionRouting(
        registry,
        new CopilotCliConnection(testConfig(tmp.dir)),
        log.store,
        side.db,
        new SubagentLaunchesReadModel(side.db),
      );
      await insertSession('parent', {});
      await insertChild('child-1', 'parent', 'researcher');
      await insertChild('child-native', 'parent', 'researcher');
      await insertChild('orphan', 'parent-gone');
      await insertLaunch('parent', 'tc-running', { childSessionId: 'child-1', startedAt: at(4) });
      await insertLaunch('parent', 'tc-done', { childSessionId: 'child-2', status: 'completed' });
    });

    afterEach(() => {
      log?.close();
      tmp?.cleanup();
    });

    it("puts a child of a live parent back in memory with its parent's running launches only", async () => {
      const parent = live('parent');
      registry.add(parent);

      await expect(routing.resolve('child-1')).resolves.toEqual({ ok: true, session: parent, isChild: true });
      expect(routing.agentOf('child-1')).toBe('researcher');
      expect(routing.resolver.activeInstances('parent')).toEqual([
        { agentName: 'researcher', toolCallId: 'tc-running', childSessionId: 'child-1', startedAt: new Date(at(4)) },
      ]);
      // Another id of the same parent: mapped too, the launches not loaded twice.
      await expect(routing.resolve('child-native')).resolves.toEqual({ ok: true, session: parent, isChild: true });
      expect(routing.resolver.activeInstances('parent')).toHaveLength(1);
    });

    it('resolves nothing for a child whose parent is not live, nor for an id nobody mapped', async () => {
      await expect(routing.resolve('orphan')).resolves.toEqual({ ok: false, error: resolverErrors.unknownSession('orphan') });
      await expect(routing.resolve('child-1')).resolves.toEqual({ ok: false, error: resolverErrors.unknownSession('child-1') });
      await expect(routing.resolve('nobody')).resolves.toEqual({ ok: false, error: resolverErrors.unknownSession('nobody') });
      expect(routing.resolver.childToParent.size).toBe(0);
    });

    it('loads a child once when two requests of it arrive together', async () => {
      const parent = live('parent');
      registry.add(parent);
      const both = await Promise.all([routing.resolve('child-1'), routing.resolve('child-1')]);
      expect(both).toEqual([
        { ok: true, session: parent, isChild: true },
        { ok: true, session: parent, isChild: true },
      ]);
      expect(routing.resolver.activeInstances('parent').map((i) => i.toolCallId)).toEqual(['tc-running']);
    });

    it('brings nothing back for a parent destroyed while the mapping was read', async () => {
      registry.add(live('parent'));
      const resolving = routing.resolve('child-1');
      // The destroy's registry removal, landing while the reload waits for the read model.
      registry.remove('parent');
      await expect(resolving).resolves.toEqual({ ok: false, error: resolverErrors.unknownSession('child-1') });
      expect(routing.resolver.childToParent.has('child-1')).toBe(false);
      expect(routing.resolver.activeInstances('parent')).toEqual([]);
    });
  });
});
