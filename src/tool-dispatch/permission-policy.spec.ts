import { LiveSession } from '../sessions/live-session';
import type { PermissionPolicy, SessionConfig, ToolSpec } from '../sessions/session-config';
import { decidePermission, permissionVerdict } from './permission-policy';

const tool = (name: string): ToolSpec => ({
  name,
  description: `${name} tool`,
  parameters: { type: 'object', properties: {} },
  handler: { type: 'webhook', url: `http://127.0.0.1:9/${name}` },
});

function session(policy: Partial<PermissionPolicy> = {}, tools: string[] = ['save_result', 'lookup']): LiveSession {
  const config: SessionConfig = {
    model: 'gpt-4.1',
    tools: tools.map(tool),
    customAgents: [{ name: 'reviewer', prompt: 'review', tools: ['save_result'] }],
    permissionPolicy: { allowKinds: [], approveOwnTools: true, askKinds: [], askTools: [], ...policy },
    subAgents: [],
  };
  return new LiveSession('session-1', config, 'active', 1);
}

describe('decidePermission', () => {
  describe('custom-tool', () => {
    it("approves one of the session's own tools for the parent session", () => {
      expect(decidePermission({ kind: 'custom-tool', toolName: 'save_result' }, session())).toEqual({
        approved: true,
        reason: "tool save_result is one of the session's own tools",
      });
    });

    it('approves an own tool for a child whose allowlist contains it', () => {
      expect(decidePermission({ kind: 'custom-tool', toolName: 'save_result' }, session())).toEqual({
        approved: true,
        reason: "tool save_result is one of the session's own tools",
      });
    });

    it('approves an own tool for a child without an allowlist', () => {
      expect(decidePermission({ kind: 'custom-tool', toolName: 'lookup' }, session()).approved).toBe(true);
    });

    it('denies a tool that is not registered on the session', () => {
      expect(decidePermission({ kind: 'custom-tool', toolName: 'rm_rf' }, session())).toEqual({
        approved: false,
        reason: 'tool rm_rf is not registered on the session',
      });
    });

    it('denies an unregistered tool for a child even if the child would allow everything', () => {
      expect(decidePermission({ kind: 'custom-tool', toolName: 'rm_rf' }, session())).toEqual({
        approved: false,
        reason: 'tool rm_rf is not registered on the session',
      });
    });

    it('names the tool "(unnamed)" when the CLI sends no tool name, and denies it', () => {
      expect(decidePermission({ kind: 'custom-tool' }, session())).toEqual({
        approved: false,
        reason: 'tool (unnamed) is not registered on the session',
      });
    });

    it('approves an own tool for a sub-agent whatever its allowlist: the allowlist applies to the call, not to permission.request (spec)', () => {
      // The call that follows is refused by the router with "Tool 'lookup' is not supported by this client instance."
      expect(decidePermission({ kind: 'custom-tool', toolName: 'lookup' }, session()).approved).toBe(true);
    });

    it('denies even an own tool when approveOwnTools is false', () => {
      expect(decidePermission({ kind: 'custom-tool', toolName: 'save_result' }, session({ approveOwnTools: false }))).toEqual({
        approved: false,
        reason: 'the permission policy refuses custom tools (approveOwnTools: false)',
      });
    });

    it('approveOwnTools: false wins over an allowKinds entry for custom-tool', () => {
      const decision = decidePermission(
        { kind: 'custom-tool', toolName: 'save_result' },
        session({ approveOwnTools: false, allowKinds: ['custom-tool'] }),
      );
      expect(decision.approved).toBe(false);
      expect(decision.reason).toBe('the permission policy refuses custom tools (approveOwnTools: false)');
    });
  });

  describe('other kinds', () => {
    it.each(['shell', 'write', 'read', 'url', 'mcp', 'memory', 'something-new'])('denies %s by default with a reason naming the kind', (kind) => {
      expect(decidePermission({ kind }, session())).toEqual({
        approved: false,
        reason: `${kind} access is not allowed by the session's permission policy (allowKinds: [])`,
      });
    });

    it('lists the allowed kinds in the denial reason', () => {
      expect(decidePermission({ kind: 'shell' }, session({ allowKinds: ['read', 'url'] }))).toEqual({
        approved: false,
        reason: "shell access is not allowed by the session's permission policy (allowKinds: [read, url])",
      });
    });

    it.each(['shell', 'write', 'read', 'url', 'mcp', 'memory'] as const)('approves %s when allowKinds lists it', (kind) => {
      expect(decidePermission({ kind }, session({ allowKinds: [kind] }))).toEqual({
        approved: true,
        reason: `the permission policy allows ${kind}`,
      });
    });

    it('approves an allowed kind for a child too (the allowlist only concerns custom tools)', () => {
      expect(decidePermission({ kind: 'read' }, session({ allowKinds: ['read'] }))).toEqual({
        approved: true,
        reason: 'the permission policy allows read',
      });
    });

    it('denies a kind not in a non-empty allowKinds', () => {
      expect(decidePermission({ kind: 'write' }, session({ allowKinds: ['read'] })).approved).toBe(false);
    });

    it('ignores the tool name for non custom-tool kinds', () => {
      expect(decidePermission({ kind: 'shell', toolName: 'save_result' }, session()).approved).toBe(false);
    });
  });

  describe('asking a person (issue 14 precedence)', () => {
    const none = async () => undefined;

    it('ask beats allow: a kind in both allowKinds and askKinds waits', async () => {
      expect(await permissionVerdict({ kind: 'shell' }, session({ allowKinds: ['shell'], askKinds: ['shell'] }), none)).toEqual({
        ask: true,
        reason: 'the permission policy asks a person for shell (askKinds)',
      });
    });

    it('askTools makes an own tool wait even though own tools are approved', async () => {
      expect(await permissionVerdict({ kind: 'custom-tool', toolName: 'save_result' }, session({ askTools: ['save_result'] }), none)).toEqual({
        ask: true,
        reason: 'the permission policy asks a person for tool save_result (askTools)',
      });
      expect(await permissionVerdict({ kind: 'custom-tool', toolName: 'lookup' }, session({ askTools: ['save_result'] }), none)).toEqual({
        approved: true,
        reason: "tool lookup is one of the session's own tools",
      });
    });

    it('askTools makes a tool of an allowed kind wait (an MCP tool under allowKinds mcp)', async () => {
      expect(await permissionVerdict({ kind: 'mcp', toolName: 'deploy' }, session({ allowKinds: ['mcp'], askTools: ['deploy'] }), none)).toMatchObject({
        ask: true,
      });
      expect(await permissionVerdict({ kind: 'mcp', toolName: 'status' }, session({ allowKinds: ['mcp'], askTools: ['deploy'] }), none)).toMatchObject({
        approved: true,
      });
    });

    it('a custom tool the session does not have is denied, never asked', async () => {
      expect(
        await permissionVerdict({ kind: 'custom-tool', toolName: 'rm_rf' }, session({ askKinds: ['custom-tool'], askTools: ['rm_rf'] }), none),
      ).toEqual({
        approved: false,
        reason: 'tool rm_rf is not registered on the session',
      });
    });

    it('asks for an own tool even when approveOwnTools is false: asked is not "neither allowed nor asked"', async () => {
      expect(
        await permissionVerdict({ kind: 'custom-tool', toolName: 'save_result' }, session({ approveOwnTools: false, askKinds: ['custom-tool'] }), none),
      ).toMatchObject({
        ask: true,
      });
    });

    it('neither allowed nor asked is denied as before', async () => {
      expect(await permissionVerdict({ kind: 'write' }, session({ askKinds: ['shell'] }), none)).toEqual({
        approved: false,
        reason: "write access is not allowed by the session's permission policy (allowKinds: [])",
      });
    });

    it('a session-scoped approval answers an asked request without asking again', async () => {
      const granted = async (q: { kind: string }) => (q.kind === 'shell' ? 'approved for the rest of the session by ops' : undefined);
      expect(await permissionVerdict({ kind: 'shell' }, session({ askKinds: ['shell', 'write'] }), granted)).toEqual({
        approved: true,
        reason: 'approved for the rest of the session by ops',
      });
      expect(await permissionVerdict({ kind: 'write' }, session({ askKinds: ['shell', 'write'] }), granted)).toMatchObject({ ask: true });
    });

    it('a policy recorded before askKinds existed asks nothing', async () => {
      const old = session();
      delete old.config.permissionPolicy.askKinds;
      delete old.config.permissionPolicy.askTools;
      expect(await permissionVerdict({ kind: 'read' }, old, none)).toMatchObject({ approved: false });
    });
  });
});
