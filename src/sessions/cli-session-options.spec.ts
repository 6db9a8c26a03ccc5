import { loadConfig } from '../config';
import { cliSessionParams, toCliCustomAgent, toToolDefinition } from './cli-session-options';
import type { CustomAgentConfig, SessionConfig, ToolSpec } from './session-config';

const saveResult: ToolSpec = {
  name: 'save_result',
  description: 'Saves a result string',
  parameters: {
    type: 'object',
    properties: { content: { type: 'string', description: 'The result to save' } },
    required: ['content'],
  },
  handler: { type: 'webhook', url: 'http://127.0.0.1:4000/save' },
};
const lookup: ToolSpec = {
  name: 'lookup',
  description: 'Looks a customer up',
  parameters: { type: 'object', properties: { id: { type: 'integer' } } },
  handler: { type: 'builtin', name: 'lookup_impl' },
};
const notify: ToolSpec = {
  name: 'notify',
  description: 'Sends a notification',
  parameters: { type: 'object', properties: {} },
  handler: { type: 'webhook', url: 'https://hooks.example.com/notify' },
};
const sessionTools = [saveResult, lookup, notify];

const def = (t: ToolSpec) => ({ name: t.name, description: t.description, parameters: t.parameters });

describe('toToolDefinition', () => {
  it('keeps name, description and parameters, and never the handler', () => {
    expect(toToolDefinition(saveResult)).toStrictEqual({
      name: 'save_result',
      description: 'Saves a result string',
      parameters: saveResult.parameters,
    });
    expect(toToolDefinition(lookup)).not.toHaveProperty('handler');
  });
});

describe('toCliCustomAgent', () => {
  it('matches the spec wire format for an agent with an allowlist', () => {
    expect(toCliCustomAgent({ name: 'reviewer', prompt: 'Review.', tools: ['save_result'] }, sessionTools)).toStrictEqual({
      name: 'reviewer',
      prompt: 'Review.',
      tools: ['save_result'],
      // The definition's own wire form is pinned by toToolDefinition's case above.
      toolDefinitions: [def(saveResult)],
    });
  });

  it('gives definitions for exactly the allowlisted tools, in allowlist order', () => {
    const agent = toCliCustomAgent({ name: 'ops', prompt: 'p', tools: ['notify', 'save_result'] }, sessionTools);
    expect(agent.tools).toEqual(['notify', 'save_result']);
    expect(agent.toolDefinitions).toStrictEqual([def(notify), def(saveResult)]);
    expect(agent.toolDefinitions?.map((d) => d.name)).not.toContain('lookup');
  });

  it.each([
    ['unset', undefined],
    ['null', null],
  ])('never adds toolDefinitions (nor tools) when tools is %s', (_label, tools) => {
    const config: CustomAgentConfig = { name: 'free', prompt: 'p', tools };
    const agent = toCliCustomAgent(config, sessionTools);
    expect(agent).toStrictEqual({ name: 'free', prompt: 'p' });
    expect(agent).not.toHaveProperty('toolDefinitions');
    expect(agent).not.toHaveProperty('tools');
  });

  it('also leaves toolDefinitions out when the key is absent entirely', () => {
    expect(toCliCustomAgent({ name: 'free', prompt: 'p' }, sessionTools)).not.toHaveProperty('toolDefinitions');
  });

  it('turns tools: [] into tools: [] and toolDefinitions: []', () => {
    expect(toCliCustomAgent({ name: 'nothing', prompt: 'p', tools: [] }, sessionTools)).toStrictEqual({
      name: 'nothing',
      prompt: 'p',
      tools: [],
      toolDefinitions: [],
    });
  });

  it('does not invent definitions for allowlisted names the session does not have', () => {
    const agent = toCliCustomAgent({ name: 'r', prompt: 'p', tools: ['ghost', 'lookup', 'phantom'] }, sessionTools);
    expect(agent.tools).toEqual(['ghost', 'lookup', 'phantom']);
    expect(agent.toolDefinitions).toStrictEqual([def(lookup)]);
  });

  it('gives an empty definitions list when no allowlisted name exists on the session', () => {
    const agent = toCliCustomAgent({ name: 'r', prompt: 'p', tools: ['ghost'] }, []);
    expect(agent.toolDefinitions).toEqual([]);
  });

  it('copies the allowlist rather than sharing the config array', () => {
    const tools = ['save_result'];
    const agent = toCliCustomAgent({ name: 'r', prompt: 'p', tools }, sessionTools);
    tools.push('lookup');
    expect(agent.tools).toEqual(['save_result']);
  });

  it('passes every optional field through when set', () => {
    const full = {
      name: 'full',
      displayName: 'Full Agent',
      description: 'Does everything',
      prompt: 'p',
      mcpServers: { github: { type: 'http', url: 'https://api.example.com/mcp' } },
      infer: false,
      model: 'claude-sonnet-4',
    };
    // A copy in: equal to what comes out, field for field.
    expect(toCliCustomAgent(structuredClone(full), sessionTools)).toStrictEqual(full);
  });

  it('leaves unset optional fields out entirely (no undefined keys)', () => {
    const agent = toCliCustomAgent(
      { name: 'min', prompt: 'p', displayName: undefined, description: undefined, infer: undefined, model: undefined },
      sessionTools,
    );
    expect(Object.keys(agent).sort()).toEqual(['name', 'prompt']);
  });

  it('keeps falsy but set values (infer: false, empty description)', () => {
    const agent = toCliCustomAgent({ name: 'a', prompt: 'p', infer: false, description: '' }, sessionTools);
    expect(agent).toStrictEqual({ name: 'a', prompt: 'p', infer: false, description: '' });
  });
});

describe('cliSessionParams', () => {
  const config: SessionConfig = {
    model: 'gpt-5',
    tools: sessionTools,
    customAgents: [
      { name: 'reviewer', prompt: 'Review.', tools: ['save_result'] },
      { name: 'free', prompt: 'Anything.' },
    ],
    permissionPolicy: { allowKinds: [], approveOwnTools: true },
    subAgents: [],
  };

  it('builds the full session.create / session.resume params', () => {
    const cli = loadConfig({
      COPILOT_PROVIDER_TYPE: 'anthropic',
      COPILOT_PROVIDER_BASE_URL: 'https://llm.example.com/v1',
      COPILOT_PROVIDER_API_KEY: 'sk-test',
      SWITCHBOARD_WORKING_DIRECTORY: '/srv/work',
    }).cli;
    const params = cliSessionParams('session-1', { ...config, systemMessage: { mode: 'replace', content: 'Be brief.' } }, cli);

    expect(params).toStrictEqual({
      sessionId: 'session-1',
      model: 'gpt-5',
      workingDirectory: '/srv/work',
      tools: [def(saveResult), def(lookup), def(notify)],
      customAgents: [
        { name: 'reviewer', prompt: 'Review.', tools: ['save_result'], toolDefinitions: [def(saveResult)] },
        { name: 'free', prompt: 'Anything.' },
      ],
      requestPermission: true,
      requestUserInput: true,
      hooks: false,
      includeSubAgentStreamingEvents: true,
      streaming: true,
      systemMessage: { mode: 'replace', content: 'Be brief.' },
      provider: { type: 'anthropic', baseUrl: 'https://llm.example.com/v1', apiKey: 'sk-test' },
    });
  });

  it('turns the CLI hooks on only when the session registered a hook, and never sends the hook URLs', () => {
    const cli = loadConfig({}).cli;
    expect(cliSessionParams('s', config, cli).hooks).toBe(false);
    expect(cliSessionParams('s', { ...config, hooks: [] }, cli).hooks).toBe(false);
    const hooked = cliSessionParams('s', { ...config, hooks: [{ type: 'preToolUse', url: 'https://hook-secret.example.com/pre' }] }, cli);
    expect(hooked.hooks).toBe(true);
    expect(JSON.stringify(hooked)).not.toContain('hook-secret.example.com');
  });

  it('advertises session tools as definitions, never with their handlers (URLs stay private)', () => {
    const params = cliSessionParams('s', config, loadConfig({}).cli);
    expect(params.tools).toStrictEqual(sessionTools.map(def));
    expect(JSON.stringify(params)).not.toContain('hooks.example.com');
    expect(JSON.stringify(params)).not.toContain('lookup_impl');
  });

  it('always asks the CLI to route permission requests to Switchboard', () => {
    expect(cliSessionParams('s', config, loadConfig({}).cli).requestPermission).toBe(true);
  });

  it('asks for streaming model answers (the CLI otherwise expects non-streaming completions)', () => {
    expect(cliSessionParams('s', config, loadConfig({}).cli).streaming).toBe(true);
  });

  it('omits the provider when none is configured', () => {
    expect(cliSessionParams('s', config, loadConfig({}).cli)).not.toHaveProperty('provider');
  });

  it('sends the provider without apiKey when no key is set', () => {
    const cli = loadConfig({ COPILOT_PROVIDER_BASE_URL: 'http://localhost:11434/v1' }).cli;
    const params = cliSessionParams('s', config, cli);
    expect(params.provider).toStrictEqual({ type: 'openai', baseUrl: 'http://localhost:11434/v1' });
    expect(params.provider).not.toHaveProperty('apiKey');
  });

  it('sends the provider without apiKey when the key is empty', () => {
    const cli = loadConfig({ COPILOT_PROVIDER_BASE_URL: 'http://localhost:11434/v1', COPILOT_PROVIDER_API_KEY: '' }).cli;
    expect(cliSessionParams('s', config, cli).provider).not.toHaveProperty('apiKey');
  });

  it('omits the systemMessage when none is set', () => {
    expect(cliSessionParams('s', config, loadConfig({}).cli)).not.toHaveProperty('systemMessage');
  });

  it('passes an append-mode systemMessage through', () => {
    const params = cliSessionParams('s', { ...config, systemMessage: { mode: 'append', content: 'Extra rules.' } }, loadConfig({}).cli);
    expect(params.systemMessage).toStrictEqual({ mode: 'append', content: 'Extra rules.' });
  });

  it('sends empty tool and agent lists for a bare session', () => {
    const params = cliSessionParams(
      's',
      { model: 'gpt-4.1', tools: [], customAgents: [], permissionPolicy: { allowKinds: [], approveOwnTools: true }, subAgents: [] },
      loadConfig({}).cli,
    );
    expect(params.tools).toEqual([]);
    expect(params.customAgents).toEqual([]);
    expect(params.model).toBe('gpt-4.1');
    expect(params.sessionId).toBe('s');
  });

  describe("the main agent's tools and MCP servers (agent-teams FR-3)", () => {
    const cli = loadConfig({});

    it('sends no allowlist, exclusions or MCP servers when the session sets none', () => {
      const params = cliSessionParams('s', config, cli.cli);
      expect(params).not.toHaveProperty('availableTools');
      expect(params).not.toHaveProperty('excludedTools');
      expect(params).not.toHaveProperty('mcpServers');
    });

    it("keeps the session's own tools and the sub-agent tool inside a built-in allowlist", () => {
      const params = cliSessionParams('s', { ...config, availableTools: ['view', 'grep'] }, cli.cli);
      expect(params.availableTools).toEqual(['view', 'grep', 'save_result', 'lookup', 'notify', 'task']);
    });

    it('adds no sub-agent tool for a session without a team', () => {
      const params = cliSessionParams('s', { ...config, customAgents: [], availableTools: ['view'] }, cli.cli, []);
      expect(params.availableTools).toEqual(['view', 'save_result', 'lookup', 'notify']);
    });

    it('an empty allowlist leaves only what the session brought', () => {
      const params = cliSessionParams('s', { ...config, tools: [], customAgents: [], availableTools: [] }, cli.cli, []);
      expect(params.availableTools).toEqual([]);
    });

    it('passes exclusions and the resolved MCP servers', () => {
      const servers = { github: { type: 'http', url: 'https://api.githubcopilot.com/mcp/' } };
      const params = cliSessionParams('s', { ...config, excludedTools: ['shell'], mcpServers: ['github'] }, cli.cli, config.customAgents, servers);
      expect(params.excludedTools).toEqual(['shell']);
      expect(params.mcpServers).toEqual(servers);
    });
  });
});
