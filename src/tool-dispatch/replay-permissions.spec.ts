import { LiveSession, type SessionConfig, type SessionReplay } from '../sessions';
import type { HostAccess } from './permission-policy';
import { replayPermission, SIDE_EFFECTS_DENIED } from './replay-permissions';

const HOST: HostAccess = { workingDirectory: '/nonexistent-switchboard-workdir', hostPermissions: true };

function replaySession(replay: Partial<SessionReplay>, allowKinds: SessionConfig['permissionPolicy']['allowKinds'] = ['shell', 'write', 'read', 'url']) {
  const config: SessionConfig = {
    model: 'gpt-4.1',
    tools: [{ name: 'lookup', description: 'lookup', parameters: {}, handler: { type: 'webhook', url: 'http://127.0.0.1:9/x' } }],
    customAgents: [],
    // The policy would ask a person for shell: a replay never does.
    permissionPolicy: { allowKinds, approveOwnTools: true, askKinds: ['shell'], askTools: [] },
    subAgents: [],
    replay: { originalSessionId: 'sub-agent-1', mode: 'replay', onDivergence: 'stop', allowSideEffects: false, ...replay },
  };
  return new LiveSession('sub-agent-2', config, 'active', 1);
}

describe('replayPermission (issue 26)', () => {
  it.each(['shell', 'write', 'url', 'mcp', 'memory'])('denies %s by default, saying how to allow it, even where the policy allows it', (kind) => {
    expect(replayPermission({ kind }, replaySession({}), HOST)).toEqual({ approved: false, reason: SIDE_EFFECTS_DENIED, decidedBy: 'switchboard' });
  });

  it('lets the policy decide a side effect with allowSideEffects, without asking a person', () => {
    const session = replaySession({ allowSideEffects: true });
    expect(replayPermission({ kind: 'shell' }, session, HOST)).toMatchObject({ approved: true });
    expect(replayPermission({ kind: 'mcp' }, session, HOST)).toMatchObject({ approved: false });
    expect(replayPermission({ kind: 'shell' }, session, HOST)).not.toHaveProperty('ask');
  });

  it("decides a read and the session's own tools by the policy, never wider than the original's", () => {
    expect(replayPermission({ kind: 'read', path: '/tmp' }, replaySession({}), HOST)).toMatchObject({ approved: true });
    expect(replayPermission({ kind: 'read', path: '/tmp' }, replaySession({}, []), HOST)).toMatchObject({ approved: false });
    expect(replayPermission({ kind: 'custom-tool', toolName: 'lookup' }, replaySession({}), HOST)).toMatchObject({ approved: true });
    expect(replayPermission({ kind: 'custom-tool', toolName: 'other' }, replaySession({}), HOST)).toMatchObject({ approved: false });
  });
});
