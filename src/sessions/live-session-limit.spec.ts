import { loadConfig } from '../config';
import { LiveSession } from './live-session';
import { LiveSessionLimit } from './live-session-limit';
import type { SessionConfig } from './session-config';
import { TooManyLiveSessionsError } from './session.errors';
import type { SessionStatus } from './session.events';
import { SessionRegistry } from './session-registry';

const config: SessionConfig = { model: 'm', tools: [], customAgents: [], permissionPolicy: { allowKinds: [], approveOwnTools: true }, subAgents: [] };

function limitOf(max: number, statuses: SessionStatus[], cliGeneration = 1) {
  const registry = new SessionRegistry();
  statuses.forEach((status, i) => registry.add(new LiveSession(`s${i}`, config, status, cliGeneration)));
  const base = loadConfig({});
  return new LiveSessionLimit({ ...base, resilience: { ...base.resilience, maxLiveSessions: max } }, registry);
}

describe('LiveSessionLimit', () => {
  it('counts starting, active, running and idle sessions, not interrupted, failed or destroyed ones', () => {
    expect(limitOf(10, ['starting', 'active', 'running', 'idle', 'interrupted', 'failed', 'destroyed']).count()).toBe(4);
  });

  it('does not count idle sessions no CLI of this process holds (reloaded at start, resumed by their next message)', () => {
    expect(limitOf(10, ['active', 'idle', 'idle'], 0).count()).toBe(0);
  });

  it('holds a slot across awaits, so two concurrent creates at the last slot cannot both pass', () => {
    const limit = limitOf(3, ['idle', 'idle']);
    const slot = limit.reserve();
    expect(limit.count()).toBe(3);
    expect(() => limit.reserve()).toThrow(TooManyLiveSessionsError);
    slot.release();
    slot.release(); // twice is once
    expect(limit.count()).toBe(2);
    expect(() => limit.reserve()).not.toThrow();
  });

  it('refuses with the variable, the cap and the live count', () => {
    expect(() => limitOf(2, ['active', 'running']).reserve()).toThrow(/2 of SWITCHBOARD_MAX_LIVE_SESSIONS=2 are live/);
  });
});
