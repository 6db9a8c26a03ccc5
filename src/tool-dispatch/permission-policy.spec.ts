import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { LiveSession, type PermissionPolicy, type SessionConfig, type ToolSpec } from '../sessions';
import { decidePermission, type HostAccess, permissionVerdict } from './permission-policy';

/** Reads need a working directory; no test here reads. */
const HOST: HostAccess = { workingDirectory: '/nonexistent-switchboard-workdir', hostPermissions: false };

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
    const ownTool = { approved: true, reason: "tool save_result is one of the session's own tools" };
    const unregistered = { approved: false, reason: 'tool rm_rf is not registered on the session' };
    it.each([
      ["approves one of the session's own tools for the parent session", 'save_result', ownTool],
      ['approves an own tool for a child whose allowlist contains it', 'save_result', ownTool],
      ['denies a tool that is not registered on the session', 'rm_rf', unregistered],
      ['denies an unregistered tool for a child even if the child would allow everything', 'rm_rf', unregistered],
    ])('%s', (_label, toolName, decision) => {
      expect(decidePermission({ kind: 'custom-tool', toolName }, session(), HOST)).toEqual(decision);
    });

    it('approves an own tool for a child without an allowlist', () => {
      expect(decidePermission({ kind: 'custom-tool', toolName: 'lookup' }, session(), HOST).approved).toBe(true);
    });

    it('names the tool "(unnamed)" when the CLI sends no tool name, and denies it', () => {
      expect(decidePermission({ kind: 'custom-tool' }, session(), HOST)).toEqual({
        approved: false,
        reason: 'tool (unnamed) is not registered on the session',
      });
    });

    it('approves an own tool for a sub-agent whatever its allowlist: the allowlist applies to the call, not to permission.request (spec)', () => {
      // The call that follows is refused by the router with "Tool 'lookup' is not supported by this client instance."
      expect(decidePermission({ kind: 'custom-tool', toolName: 'lookup' }, session(), HOST).approved).toBe(true);
    });

    it('denies even an own tool when approveOwnTools is false', () => {
      expect(decidePermission({ kind: 'custom-tool', toolName: 'save_result' }, session({ approveOwnTools: false }), HOST)).toEqual({
        approved: false,
        reason: 'the permission policy refuses custom tools (approveOwnTools: false)',
      });
    });

    it('approveOwnTools: false wins over an allowKinds entry for custom-tool', () => {
      const decision = decidePermission(
        { kind: 'custom-tool', toolName: 'save_result' },
        session({ approveOwnTools: false, allowKinds: ['custom-tool'] }),
        HOST,
      );
      expect(decision.approved).toBe(false);
      expect(decision.reason).toBe('the permission policy refuses custom tools (approveOwnTools: false)');
    });
  });

  describe('other kinds', () => {
    it.each(['shell', 'write', 'read', 'url', 'mcp', 'memory', 'something-new'])('denies %s by default with a reason naming the kind', (kind) => {
      expect(decidePermission({ kind }, session(), HOST)).toEqual({
        approved: false,
        reason: `${kind} access is not allowed by the session's permission policy (allowKinds: [])`,
      });
    });

    it('lists the allowed kinds in the denial reason', () => {
      expect(decidePermission({ kind: 'shell' }, session({ allowKinds: ['read', 'url'] }), HOST)).toEqual({
        approved: false,
        reason: "shell access is not allowed by the session's permission policy (allowKinds: [read, url])",
      });
    });

    it.each(['shell', 'write', 'url', 'mcp', 'memory'] as const)('approves %s when allowKinds lists it', (kind) => {
      expect(decidePermission({ kind }, session({ allowKinds: [kind] }), HOST)).toEqual({
        approved: true,
        reason: `the permission policy allows ${kind}`,
      });
    });

    it('approves an allowed kind for a child too (the allowlist only concerns custom tools)', () => {
      expect(decidePermission({ kind: 'mcp' }, session({ allowKinds: ['mcp'] }), HOST)).toEqual({
        approved: true,
        reason: 'the permission policy allows mcp',
      });
    });

    it('denies a kind not in a non-empty allowKinds', () => {
      expect(decidePermission({ kind: 'write' }, session({ allowKinds: ['read'] }), HOST).approved).toBe(false);
    });

    it('ignores the tool name for non custom-tool kinds', () => {
      expect(decidePermission({ kind: 'shell', toolName: 'save_result' }, session(), HOST).approved).toBe(false);
    });
  });

  describe('read: the working directory only (issue 22 §2)', () => {
    // A real tree: /tmp/x/dir (the working directory) with a file, a symlink out, and dir-evil beside it.
    let top: string;
    let workdir: string;
    let host: HostAccess;
    beforeAll(() => {
      top = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-read-scope-')));
      workdir = path.join(top, 'dir');
      fs.mkdirSync(path.join(workdir, 'src'), { recursive: true });
      fs.writeFileSync(path.join(workdir, 'src', 'main.ts'), 'inside');
      fs.mkdirSync(path.join(top, 'dir-evil'));
      fs.writeFileSync(path.join(top, 'dir-evil', 'secret'), 'outside');
      fs.writeFileSync(path.join(top, 'secret'), 'outside');
      fs.symlinkSync(top, path.join(workdir, 'up'));
      fs.symlinkSync(path.join(top, 'secret'), path.join(workdir, 'secret-link'));
      fs.symlinkSync(path.join(workdir, 'src'), path.join(top, 'link-to-dir'));
      host = { workingDirectory: workdir, hostPermissions: false };
    });
    afterAll(() => fs.rmSync(top, { recursive: true, force: true }));
    const allowRead = () => session({ allowKinds: ['read'] });

    it.each([
      ['a file inside, absolute', () => path.join(workdir, 'src', 'main.ts')],
      ['a file inside, relative', () => 'src/main.ts'],
      ['the directory itself', () => workdir],
      ['a path with .. that stays inside', () => 'src/../src/main.ts'],
      ['a file not there yet', () => 'src/new.ts'],
      ['a name that starts with two dots', () => '..hidden'],
    ])('approves %s', (_, requested) => {
      expect(decidePermission({ kind: 'read', path: requested() }, allowRead(), host)).toEqual({
        approved: true,
        reason: `the permission policy allows read inside the working directory ${workdir}`,
      });
    });

    it.each([
      ['/proc/<pid>/environ', () => `/proc/${process.pid}/environ`],
      ['a sibling that shares the prefix', () => path.join(top, 'dir-evil', 'secret')],
      ['.. out of it', () => '../secret'],
      ['an absolute path with .. out of it', () => path.join(workdir, 'src', '..', '..', 'secret')],
      ['a symlinked folder pointing out', () => 'up/secret'],
      ['a symlinked file pointing out', () => 'secret-link'],
      ['a file not there yet under a symlink pointing out', () => 'up/not-yet'],
      ['the root', () => '/'],
    ])('denies %s, naming the working directory and the switch', (_, requested) => {
      const decision = decidePermission({ kind: 'read', path: requested() }, allowRead(), host);
      expect(decision.approved).toBe(false);
      expect(decision.reason).toContain(`outside the session's working directory ${workdir}`);
      expect(decision.reason).toContain('SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true');
    });

    it('approves a path into the working directory through a link outside it', () => {
      expect(decidePermission({ kind: 'read', path: path.join(top, 'link-to-dir', 'main.ts') }, allowRead(), host).approved).toBe(true);
    });

    it('denies a read that names no path', () => {
      expect(decidePermission({ kind: 'read' }, allowRead(), host)).toMatchObject({
        approved: false,
        reason: expect.stringContaining('the read request names no path'),
      });
    });

    it('with SWITCHBOARD_ALLOW_HOST_PERMISSIONS a read in allowKinds reaches any path, as before', () => {
      const open = { ...host, hostPermissions: true };
      expect(decidePermission({ kind: 'read', path: `/proc/${process.pid}/environ` }, allowRead(), open)).toEqual({
        approved: true,
        reason: 'the permission policy allows read',
      });
      expect(decidePermission({ kind: 'read' }, allowRead(), open).approved).toBe(true);
    });

    it('asks a person when askKinds lists read, inside or outside', async () => {
      const asking = session({ allowKinds: ['read'], askKinds: ['read'] });
      for (const requested of ['src/main.ts', '/etc/passwd']) {
        expect(await permissionVerdict({ kind: 'read', path: requested }, asking, async () => undefined, host)).toMatchObject({ ask: true });
      }
    });

    it('still denies a read outside through permissionVerdict when nobody is asked', async () => {
      expect(await permissionVerdict({ kind: 'read', path: '/etc/passwd' }, allowRead(), async () => undefined, host)).toMatchObject({ approved: false });
    });
  });

  describe('asking a person (issue 14 precedence)', () => {
    const none = async () => undefined;

    it('ask beats allow: a kind in both allowKinds and askKinds waits', async () => {
      expect(await permissionVerdict({ kind: 'shell' }, session({ allowKinds: ['shell'], askKinds: ['shell'] }), none, HOST)).toEqual({
        ask: true,
        reason: 'the permission policy asks a person for shell (askKinds)',
      });
    });

    it('askTools makes an own tool wait even though own tools are approved', async () => {
      expect(await permissionVerdict({ kind: 'custom-tool', toolName: 'save_result' }, session({ askTools: ['save_result'] }), none, HOST)).toEqual({
        ask: true,
        reason: 'the permission policy asks a person for tool save_result (askTools)',
      });
      expect(await permissionVerdict({ kind: 'custom-tool', toolName: 'lookup' }, session({ askTools: ['save_result'] }), none, HOST)).toEqual({
        approved: true,
        reason: "tool lookup is one of the session's own tools",
      });
    });

    it('askTools makes a tool of an allowed kind wait (an MCP tool under allowKinds mcp)', async () => {
      expect(
        await permissionVerdict({ kind: 'mcp', toolName: 'deploy' }, session({ allowKinds: ['mcp'], askTools: ['deploy'] }), none, HOST),
      ).toMatchObject({
        ask: true,
      });
      expect(
        await permissionVerdict({ kind: 'mcp', toolName: 'status' }, session({ allowKinds: ['mcp'], askTools: ['deploy'] }), none, HOST),
      ).toMatchObject({
        approved: true,
      });
    });

    it('a custom tool the session does not have is denied, never asked', async () => {
      expect(
        await permissionVerdict({ kind: 'custom-tool', toolName: 'rm_rf' }, session({ askKinds: ['custom-tool'], askTools: ['rm_rf'] }), none, HOST),
      ).toEqual({
        approved: false,
        reason: 'tool rm_rf is not registered on the session',
      });
    });

    it('asks for an own tool even when approveOwnTools is false: asked is not "neither allowed nor asked"', async () => {
      expect(
        await permissionVerdict(
          { kind: 'custom-tool', toolName: 'save_result' },
          session({ approveOwnTools: false, askKinds: ['custom-tool'] }),
          none,
          HOST,
        ),
      ).toMatchObject({
        ask: true,
      });
    });

    it('neither allowed nor asked is denied as before', async () => {
      expect(await permissionVerdict({ kind: 'write' }, session({ askKinds: ['shell'] }), none, HOST)).toEqual({
        approved: false,
        reason: "write access is not allowed by the session's permission policy (allowKinds: [])",
      });
    });

    it('a session-scoped approval answers an asked request without asking again', async () => {
      const granted = async (q: { kind: string }) => (q.kind === 'shell' ? 'approved for the rest of the session by ops' : undefined);
      expect(await permissionVerdict({ kind: 'shell' }, session({ askKinds: ['shell', 'write'] }), granted, HOST)).toEqual({
        approved: true,
        reason: 'approved for the rest of the session by ops',
        decidedBy: 'session-grant',
      });
      expect(await permissionVerdict({ kind: 'write' }, session({ askKinds: ['shell', 'write'] }), granted, HOST)).toMatchObject({ ask: true });
    });

    it('a policy recorded before askKinds existed asks nothing', async () => {
      const old = session();
      delete old.config.permissionPolicy.askKinds;
      delete old.config.permissionPolicy.askTools;
      expect(await permissionVerdict({ kind: 'read' }, old, none, HOST)).toMatchObject({ approved: false });
    });
  });
});
