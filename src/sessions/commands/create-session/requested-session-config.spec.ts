import { McpServerRegistry, type LibraryAgent, agentFieldsSchema } from '../../../agents';
import { testConfig } from '../../../../test/fixtures/test-config';
import { BuiltinToolCatalog } from '../../builtin-tool-catalog';
import { createSessionSchema, DEFAULT_PERMISSION_POLICY } from '../../session-config';
import { requestedSessionConfig, type SessionConfigSources } from './requested-session-config';

const config = testConfig('/nonexistent');
const builtins = new BuiltinToolCatalog();
builtins.registerGroup('delegation', [{ name: 'agent_run', description: 'Start a run', parameters: {}, handler: { type: 'builtin', name: 'agent_run' } }]);
const sources: SessionConfigSources = { config, builtins, mcp: new McpServerRegistry(config) };

function agent(fields: Record<string, unknown>): LibraryAgent {
  return { ...agentFieldsSchema.parse({ name: 'Lead', ...fields }), id: 'lead', created_at: '', updated_at: '', version: 1 };
}
const request = (body: Record<string, unknown> = {}) => createSessionSchema.parse({ agentId: 'lead', ...body });
const toolNames = (tools: Array<{ name: string }>) => tools.map((t) => t.name);

describe("a session's delegation, permission policy and budget: the request, else its agent's defaults", () => {
  it('gives a lead (an agent with sub-agents) delegation by default, and an agent without sub-agents none', () => {
    const lead = requestedSessionConfig(request(), agent({ sub_agents: ['code-reviewer'] }), sources);
    expect(lead.delegation).toBe(true);
    expect(toolNames(lead.tools)).toEqual(['agent_run']);
    const solo = requestedSessionConfig(request(), agent({}), sources);
    expect(solo.delegation).toBe(false);
    expect(solo.tools).toEqual([]);
  });

  it("records the agent's name as it is when the session starts (its spans name it), and none without an agent", () => {
    expect(requestedSessionConfig(request(), agent({ name: 'Engineering Lead' }), sources)).toMatchObject({
      agentId: 'lead',
      agentName: 'Engineering Lead',
    });
    expect(requestedSessionConfig(createSessionSchema.parse({}), undefined, sources).agentName).toBeUndefined();
  });

  it("follows the agent's delegation switch, and the request's over both", () => {
    expect(requestedSessionConfig(request(), agent({ sub_agents: ['code-reviewer'], delegation: false }), sources).delegation).toBe(false);
    expect(requestedSessionConfig(request(), agent({ delegation: true }), sources).delegation).toBe(true);
    expect(requestedSessionConfig(request({ delegation: false }), agent({ delegation: true }), sources).delegation).toBe(false);
    expect(requestedSessionConfig(request({ delegation: true }), agent({ delegation: false }), sources).delegation).toBe(true);
  });

  it("takes the agent's permission policy (snake_case mapped) unless the request gives one, which replaces it whole", () => {
    const lead = agent({ permission_policy: { allow_kinds: ['read'], ask_kinds: ['custom-tool'], ask_tools: ['agent_run'] } });
    expect(requestedSessionConfig(request(), lead, sources).permissionPolicy).toEqual({
      allowKinds: ['read'],
      approveOwnTools: true,
      askKinds: ['custom-tool'],
      askTools: ['agent_run'],
    });
    expect(requestedSessionConfig(request({ permissionPolicy: { askTools: ['save_result'] } }), lead, sources).permissionPolicy).toEqual({
      allowKinds: [],
      approveOwnTools: true,
      askTools: ['save_result'],
    });
    expect(requestedSessionConfig(request(), agent({}), sources).permissionPolicy).toEqual(DEFAULT_PERMISSION_POLICY);
  });

  it("takes the agent's budget unless the request gives one", () => {
    const lead = agent({ budget: { max_runs: 5, max_tokens: 50_000 } });
    expect(requestedSessionConfig(request(), lead, sources).budget).toEqual({ max_tokens: 50_000, max_runs: 5 });
    expect(requestedSessionConfig(request({ budget: { maxRuns: 2 } }), lead, sources).budget).toEqual({ max_runs: 2 });
    expect(requestedSessionConfig(request(), agent({}), sources)).not.toHaveProperty('budget');
  });

  it("skips every default for a run's session: the delegation engine says what a run gets", () => {
    const lead = agent({ sub_agents: ['code-reviewer'], permission_policy: { ask_kinds: ['custom-tool'] }, budget: { max_runs: 1 } });
    const run = requestedSessionConfig(request(), lead, sources, 'skip');
    expect(run.delegation).toBe(false);
    expect(run.permissionPolicy).toEqual(DEFAULT_PERMISSION_POLICY);
    expect(run).not.toHaveProperty('budget');
  });

  it('gives no delegation to a session without an agent unless asked', () => {
    const plain = createSessionSchema.parse({});
    expect(requestedSessionConfig(plain, undefined, sources).delegation).toBe(false);
    expect(requestedSessionConfig({ ...plain, delegation: true }, undefined, sources).delegation).toBe(true);
  });
});
