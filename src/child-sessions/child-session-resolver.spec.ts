import fc from 'fast-check';
import { ChildSessionResolver, type ParentSession, resolverErrors } from './child-session-resolver';

class FakeParent implements ParentSession {
  constructor(
    readonly sessionId: string,
    private readonly tools: string[],
    private readonly agents: Record<string, string[] | null | undefined>,
  ) {}
  agentToolAllowlist(agentName: string) {
    return this.agents[agentName];
  }
  hasTool(toolName: string) {
    return this.tools.includes(toolName);
  }
}

function setup() {
  const sessions = new Map<string, FakeParent>();
  const resolver = new ChildSessionResolver<FakeParent>(sessions);
  const parent = new FakeParent('parent-1', ['save_result', 'lookup'], {
    reviewer: ['save_result'],
    free: undefined,
    nothing: [],
  });
  sessions.set(parent.sessionId, parent);
  return { sessions, resolver, parent };
}

const started = (childSessionId: string, agentName: string, toolCallId = `call-${childSessionId}`) => ({
  childSessionId,
  agentName,
  toolCallId,
  startedAt: new Date('2026-01-01T00:00:00Z'),
});

describe('ChildSessionResolver', () => {
  it('resolves a registered session directly', () => {
    const { resolver, parent } = setup();
    expect(resolver.resolveSession('parent-1')).toEqual({ ok: true, session: parent, isChild: false });
  });

  it('resolves a child to its parent after subagent.started and keeps the three maps as the spec says', () => {
    const { resolver, parent } = setup();
    resolver.registerSubagentStarted('parent-1', started('child-1', 'reviewer', 'call-1'));
    expect(resolver.resolveSession('child-1')).toEqual({ ok: true, session: parent, isChild: true });
    expect(resolver.childToParent.get('child-1')).toBe('parent-1');
    expect(resolver.childToAgent.get('child-1')).toBe('reviewer');
    expect(resolver.subagentInstances.get('parent-1')?.get('call-1')).toMatchObject({ agentName: 'reviewer', childSessionId: 'child-1' });
  });

  it('answers an unknown id with the exact spec text', () => {
    const { resolver } = setup();
    expect(resolver.resolveSession('nobody')).toEqual({ ok: false, error: 'unknown session nobody' });
  });

  it('answers a child whose parent is gone with the exact spec text', () => {
    const { resolver, sessions } = setup();
    resolver.registerSubagentStarted('parent-1', started('child-1', 'reviewer'));
    sessions.delete('parent-1');
    expect(resolver.resolveSession('child-1')).toEqual({
      ok: false,
      error: 'parent session parent-1 for child child-1 not found',
    });
  });

  describe('allowlist', () => {
    it.each([
      ['reviewer', 'save_result', true],
      ['reviewer', 'lookup', false],
      ['free', 'lookup', true],
      ['free', 'save_result', true],
      ['nothing', 'save_result', false],
      ['free', 'not_registered', false],
    ])('agent %s calling %s: allowed=%s', (agent, tool, allowed) => {
      const { resolver } = setup();
      resolver.registerSubagentStarted('parent-1', started('child-1', agent));
      expect(resolver.isToolAllowedForChild('child-1', tool)).toBe(allowed);
    });

    it('uses the exact denial text', () => {
      expect(resolverErrors.toolNotSupported('lookup')).toBe("Tool 'lookup' is not supported by this client instance.");
    });

    it('never lets a child reach a tool outside its allowlist (property)', () => {
      const toolName = fc.constantFrom('a', 'b', 'c', 'd', 'e');
      fc.assert(
        fc.property(fc.uniqueArray(toolName), fc.option(fc.uniqueArray(toolName), { nil: undefined }), toolName, (registered, allowlist, requested) => {
          const sessions = new Map<string, FakeParent>();
          sessions.set('p', new FakeParent('p', registered, { agent: allowlist }));
          const resolver = new ChildSessionResolver(sessions);
          resolver.registerSubagentStarted('p', started('c', 'agent'));
          const allowed = resolver.isToolAllowedForChild('c', requested);
          const permitted = registered.includes(requested) && (allowlist === undefined || allowlist.includes(requested));
          expect(allowed).toBe(permitted);
        }),
      );
    });
  });

  describe('cleanup contract', () => {
    it('subagent.completed/failed removes the instance only; late requests still resolve', () => {
      const { resolver, parent } = setup();
      resolver.registerSubagentStarted('parent-1', started('child-1', 'reviewer', 'call-1'));
      expect(resolver.registerSubagentEnded('parent-1', 'call-1')?.childSessionId).toBe('child-1');
      expect(resolver.subagentInstances.get('parent-1')?.size).toBe(0);
      expect(resolver.resolveSession('child-1')).toEqual({ ok: true, session: parent, isChild: true });
      expect(resolver.isToolAllowedForChild('child-1', 'save_result')).toBe(true);
    });

    it("delete/destroy of a parent removes its children and its instances, not other parents'", () => {
      const { resolver, sessions } = setup();
      const other = new FakeParent('parent-2', ['save_result'], { reviewer: undefined });
      sessions.set('parent-2', other);
      resolver.registerSubagentStarted('parent-1', started('child-1', 'reviewer'));
      resolver.registerSubagentStarted('parent-2', started('child-2', 'reviewer'));
      expect(resolver.removeParent('parent-1')).toEqual(['child-1']);
      sessions.delete('parent-1');
      expect(resolver.resolveSession('child-1')).toEqual({ ok: false, error: 'unknown session child-1' });
      expect(resolver.subagentInstances.has('parent-1')).toBe(false);
      expect(resolver.resolveSession('child-2')).toEqual({ ok: true, session: other, isChild: true });
    });

    it('stop clears every map', () => {
      const { resolver } = setup();
      resolver.registerSubagentStarted('parent-1', started('child-1', 'reviewer'));
      resolver.clear();
      expect([resolver.childToParent.size, resolver.childToAgent.size, resolver.subagentInstances.size]).toEqual([0, 0, 0]);
    });
  });

  it('keeps two parents isolated: a child resolves only to its own parent and its own agent allowlist', () => {
    const { resolver, sessions, parent } = setup();
    const other = new FakeParent('parent-2', ['lookup'], { reviewer: ['lookup'] });
    sessions.set('parent-2', other);
    resolver.registerSubagentStarted('parent-1', started('child-1', 'reviewer'));
    resolver.registerSubagentStarted('parent-2', started('child-2', 'reviewer'));
    expect(resolver.resolveSession('child-1')).toMatchObject({ session: parent });
    expect(resolver.resolveSession('child-2')).toMatchObject({ session: other });
    expect(resolver.isToolAllowedForChild('child-1', 'lookup')).toBe(false);
    expect(resolver.isToolAllowedForChild('child-2', 'lookup')).toBe(true);
  });

  it('tracks concurrent launches of one agent as separate instances', () => {
    const { resolver } = setup();
    resolver.registerSubagentStarted('parent-1', started('child-a', 'reviewer', 'call-a'));
    resolver.registerSubagentStarted('parent-1', started('child-b', 'reviewer', 'call-b'));
    expect(resolver.activeInstances('parent-1').map((i) => i.childSessionId)).toEqual(['child-a', 'child-b']);
    resolver.registerSubagentEnded('parent-1', 'call-a');
    expect(resolver.activeInstances('parent-1').map((i) => i.childSessionId)).toEqual(['child-b']);
    expect(resolver.resolveSession('child-a').ok).toBe(true);
  });

  it('maps a protocol-3 alias (native session id) to the same parent and agent', () => {
    const { resolver, parent } = setup();
    resolver.registerSubagentStarted('parent-1', started('task-1', 'reviewer'));
    resolver.mapChild('native-1', 'parent-1', 'reviewer');
    expect(resolver.resolveSession('native-1')).toEqual({ ok: true, session: parent, isChild: true });
    expect(resolver.isToolAllowedForChild('native-1', 'lookup')).toBe(false);
  });
});
