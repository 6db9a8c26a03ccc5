import { LiveSession } from '../sessions/live-session';
import type { PermissionPolicy, SessionConfig, ToolSpec } from '../sessions/session-config';
import { decidePermission } from './permission-policy';

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
    permissionPolicy: { allowKinds: [], approveOwnTools: true, ...policy },
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
});
