import { createSessionSchema, customAgentSchema, toolSpecSchema } from './session-config';

const webhookTool = (overrides: Record<string, unknown> = {}) => ({
  name: 'save_result',
  description: 'Saves a result string',
  parameters: { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] },
  handler: { type: 'webhook', url: 'https://hooks.example.com/save' },
  ...overrides,
});

/** The issues a caller sees, as {path, message}. Fails the test if the input was accepted. */
function issues(input: unknown): { path: PropertyKey[]; message: string }[] {
  const result = createSessionSchema.safeParse(input);
  if (result.success) throw new Error(`expected a refusal, got ${JSON.stringify(result.data)}`);
  return result.error.issues.map((i) => ({ path: i.path, message: i.message }));
}

describe('createSessionSchema', () => {
  describe('accepts', () => {
    it('a full valid request, unchanged', () => {
      const request = {
        model: 'gpt-5',
        systemMessage: { mode: 'replace', content: 'You coordinate a team.' },
        tools: [
          webhookTool(),
          {
            name: 'delegate',
            description: 'Hands a task to a teammate',
            parameters: { type: 'object', properties: { task: { type: 'string' } } },
            handler: { type: 'builtin', name: 'delegate' },
          },
        ],
        customAgents: [
          {
            name: 'reviewer',
            displayName: 'Reviewer',
            description: 'Reviews code',
            prompt: 'Review carefully.',
            tools: ['save_result'],
            mcpServers: { gh: { type: 'http', url: 'https://mcp.example.com' } },
            infer: true,
            model: 'claude-sonnet-4',
          },
          { name: 'free-agent', prompt: 'Do anything.', tools: null },
          { name: 'no.tools_agent', prompt: 'Think only.', tools: [] },
        ],
        permissionPolicy: { allowKinds: ['read', 'url'], approveOwnTools: false },
        delegation: true,
        hooks: [
          { type: 'preToolUse', url: 'https://hooks.example.com/pre', failure: 'open' },
          { type: 'sessionEnd', url: 'http://127.0.0.1:9000/end' },
        ],
      };
      const result = createSessionSchema.safeParse(request);
      expect(result.success).toBe(true);
      expect(result.data).toStrictEqual(request);
    });

    it('an empty request, applying every default; delegation and the policy stay unset so the agent can give them', () => {
      expect(createSessionSchema.parse({})).toStrictEqual({
        tools: [],
        customAgents: [],
        hooks: [],
      });
    });

    it('refuses a hook of a type the CLI does not send, a non-http URL and an unknown failure mode', () => {
      const result = createSessionSchema.safeParse({
        hooks: [
          { type: 'beforeEverything', url: 'https://x.example.com' },
          { type: 'preToolUse', url: 'file:///etc/passwd' },
          { type: 'preToolUse', url: 'https://x.example.com', failure: 'maybe' },
        ],
      });
      expect(result.success).toBe(false);
      expect(result.error!.issues.map((i) => i.path.join('.'))).toEqual(['hooks.0.type', 'hooks.1.url', 'hooks.2.failure']);
    });

    it('defaults a tool without parameters to an empty object schema', () => {
      const { parameters: _omitted, ...withoutParameters } = webhookTool();
      const parsed = createSessionSchema.parse({ tools: [withoutParameters] });
      expect(parsed.tools[0].parameters).toStrictEqual({ type: 'object', properties: {} });
    });

    it('defaults the systemMessage mode to append', () => {
      expect(createSessionSchema.parse({ systemMessage: { content: 'extra' } }).systemMessage).toStrictEqual({
        mode: 'append',
        content: 'extra',
      });
    });

    it('fills each missing permission-policy field on its own', () => {
      expect(createSessionSchema.parse({ permissionPolicy: { approveOwnTools: false } }).permissionPolicy).toStrictEqual({
        allowKinds: [],
        approveOwnTools: false,
      });
      expect(createSessionSchema.parse({ permissionPolicy: { allowKinds: ['shell'] } }).permissionPolicy).toStrictEqual({
        allowKinds: ['shell'],
        approveOwnTools: true,
      });
    });

    it('keeps an unset agent allowlist unset (all tools), distinct from null and []', () => {
      const parsed = createSessionSchema.parse({
        customAgents: [
          { name: 'a', prompt: 'p' },
          { name: 'b', prompt: 'p', tools: null },
          { name: 'c', prompt: 'p', tools: [] },
        ],
      });
      expect(parsed.customAgents[0]).not.toHaveProperty('tools');
      expect(parsed.customAgents[1].tools).toBeNull();
      expect(parsed.customAgents[2].tools).toEqual([]);
    });

    it('keeps the free-form JSON of parameters and mcpServers as given', () => {
      const parameters = { type: 'object', properties: { q: { type: 'string' } }, anyKey: { nested: [1, { x: true }] } };
      const mcpServers = { github: { type: 'http', url: 'https://example.com/mcp', headers: { anything: 'goes' } } };
      const parsed = createSessionSchema.parse({ tools: [webhookTool({ parameters })], customAgents: [{ name: 'a', prompt: 'p', mcpServers }] });
      expect(parsed.tools[0].parameters).toStrictEqual(parameters);
      expect(parsed.customAgents[0].mcpServers).toStrictEqual(mcpServers);
    });

    it.each(['http://127.0.0.1:3000/tool', 'https://hooks.example.com:8443/t?x=1', 'http://localhost/t'])('the webhook URL %s', (url) => {
      expect(createSessionSchema.safeParse({ tools: [webhookTool({ handler: { type: 'webhook', url } })] }).success).toBe(true);
    });

    it('names and prompts at their maximum sizes', () => {
      const parsed = createSessionSchema.safeParse({
        tools: [webhookTool({ name: 'n'.repeat(64) })],
        customAgents: [{ name: 'a'.repeat(64), prompt: 'p'.repeat(200_000) }],
        systemMessage: { content: 's'.repeat(200_000) },
      });
      expect(parsed.success).toBe(true);
    });
  });

  describe('refuses', () => {
    it('a budget that is empty, unknown, not positive integers or a cost that is not a positive amount, naming the budget', () => {
      // The JSON API's camelCase, stored as the snake_case budget the delegation engine enforces.
      expect(createSessionSchema.parse({ budget: { maxToolCalls: 10, maxRuns: 2 } }).budget).toEqual({ max_tool_calls: 10, max_runs: 2 });
      expect(createSessionSchema.parse({ budget: { maxCost: 0.75 } }).budget).toEqual({ max_cost: 0.75 });
      for (const budget of [{}, { maxTokens: 0 }, { maxRuns: 1.5 }, { maxCost: 0 }, { maxCost: -1 }, { max_cost: 3 }, { max_runs: 2 }]) {
        expect(issues({ budget })[0].path[0]).toBe('budget');
      }
    });

    // Unknown keys were dropped silently: `agentID` (for agentId) made a plain session.
    it.each([
      [{ agentID: 'x' }, '', 'agentID'],
      [{ tools: [webhookTool({ secretHeader: 'x' })] }, 'tools.0', 'secretHeader'],
      [{ tools: [webhookTool({ handler: { type: 'webhook', url: 'http://127.0.0.1/t', method: 'PUT' } })] }, 'tools.0.handler', 'method'],
      [{ tools: [webhookTool({ handler: { type: 'builtin', name: 'agent_run', url: 'http://x' } })] }, 'tools.0.handler', 'url'],
      [{ customAgents: [{ name: 'a', prompt: 'p', toolz: [] }] }, 'customAgents.0', 'toolz'],
      [{ permissionPolicy: { allowKinds: [], approveAll: true } }, 'permissionPolicy', 'approveAll'],
      [{ systemMessage: { content: 'c', role: 'system' } }, 'systemMessage', 'role'],
    ])('the unknown key in %j, naming it', (request, path, key) => {
      const result = createSessionSchema.safeParse(request);
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([expect.objectContaining({ path: path ? path.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) : [] })]);
      expect(result.error?.issues[0].message).toContain(`"${key}"`);
    });

    it.each(['has space', 'slash/name', 'semi;colon', 'ünïcode', 'quote"', 'dot.name'])('the tool name %j', (name) => {
      expect(issues({ tools: [webhookTool({ name })] })).toEqual([
        { path: ['tools', 0, 'name'], message: 'use letters, digits, _ and - only (the Copilot CLI refuses other characters in tool names)' },
      ]);
    });

    it('a tool name longer than 64 characters', () => {
      expect(issues({ tools: [webhookTool({ name: 'n'.repeat(65) })] })).toEqual([
        { path: ['tools', 0, 'name'], message: 'Too big: expected string to have <=64 characters' },
      ]);
    });

    it('an empty tool name', () => {
      expect(issues({ tools: [webhookTool({ name: '' })] })).toContainEqual({
        path: ['tools', 0, 'name'],
        message: 'Too small: expected string to have >=1 characters',
      });
    });

    it('a bad name in the second tool, pointing at that tool', () => {
      expect(issues({ tools: [webhookTool(), webhookTool({ name: 'bad name' })] })).toEqual([
        { path: ['tools', 1, 'name'], message: 'use letters, digits, _ and - only (the Copilot CLI refuses other characters in tool names)' },
      ]);
    });

    it('a bad name in an agent allowlist, pointing at the entry', () => {
      expect(issues({ customAgents: [{ name: 'a', prompt: 'p', tools: ['ok', 'not ok'] }] })).toEqual([
        { path: ['customAgents', 0, 'tools', 1], message: 'use letters, digits, _ . - only' },
      ]);
    });

    it('a bad agent name', () => {
      expect(issues({ customAgents: [{ name: 'code reviewer', prompt: 'p' }] })).toEqual([
        { path: ['customAgents', 0, 'name'], message: 'use letters, digits, _ . - only' },
      ]);
    });

    it.each(['ftp://files.example.com/x', 'file:///etc/passwd', 'javascript:alert(1)', 'ws://hooks.example.com/t'])(
      'the non-http webhook URL %s',
      (url) => {
        expect(issues({ tools: [webhookTool({ handler: { type: 'webhook', url } })] })).toEqual([
          { path: ['tools', 0, 'handler', 'url'], message: 'must be an http(s) URL' },
        ]);
      },
    );

    it('a webhook URL that is not a URL at all', () => {
      expect(issues({ tools: [webhookTool({ handler: { type: 'webhook', url: 'not a url' } })] })).toEqual([
        { path: ['tools', 0, 'handler', 'url'], message: 'Invalid URL' },
        { path: ['tools', 0, 'handler', 'url'], message: 'must be an http(s) URL' },
      ]);
    });

    it('an http URL without a host', () => {
      expect(issues({ tools: [webhookTool({ handler: { type: 'webhook', url: 'http://' } })] })).toEqual([
        { path: ['tools', 0, 'handler', 'url'], message: 'Invalid URL' },
      ]);
    });

    it('an unknown handler type', () => {
      expect(issues({ tools: [webhookTool({ handler: { type: 'grpc', url: 'http://x.test' } })] })).toEqual([
        { path: ['tools', 0, 'handler', 'type'], message: "Invalid discriminator value. Expected 'webhook' | 'builtin'" },
      ]);
    });

    it('a builtin handler with a bad name', () => {
      expect(issues({ tools: [webhookTool({ handler: { type: 'builtin', name: 'no spaces allowed' } })] })).toEqual([
        { path: ['tools', 0, 'handler', 'name'], message: 'use letters, digits, _ . - only' },
      ]);
    });

    it('a duplicate tool name, naming it', () => {
      expect(issues({ tools: [webhookTool(), webhookTool({ name: 'other' }), webhookTool({ description: 'again' })] })).toEqual([
        { path: ['tools'], message: 'tool save_result is defined twice' },
      ]);
    });

    it('a duplicate agent name, naming it', () => {
      expect(
        issues({
          customAgents: [
            { name: 'reviewer', prompt: 'p' },
            { name: 'writer', prompt: 'p' },
            { name: 'reviewer', prompt: 'q' },
          ],
        }),
      ).toEqual([{ path: ['customAgents'], message: 'agent reviewer is defined twice' }]);
    });

    it('duplicate tools and duplicate agents together, each reported', () => {
      expect(
        issues({
          tools: [webhookTool(), webhookTool()],
          customAgents: [
            { name: 'a', prompt: 'p' },
            { name: 'a', prompt: 'p' },
          ],
        }),
      ).toEqual([
        { path: ['tools'], message: 'tool save_result is defined twice' },
        { path: ['customAgents'], message: 'agent a is defined twice' },
      ]);
    });

    it('a tool and an agent may share a name (different namespaces)', () => {
      expect(createSessionSchema.safeParse({ tools: [webhookTool()], customAgents: [{ name: 'save_result', prompt: 'p' }] }).success).toBe(true);
    });

    it('an agent prompt over 200,000 characters', () => {
      expect(issues({ customAgents: [{ name: 'a', prompt: 'p'.repeat(200_001) }] })).toEqual([
        { path: ['customAgents', 0, 'prompt'], message: 'Too big: expected string to have <=200000 characters' },
      ]);
    });

    it('a system message over 200,000 characters', () => {
      expect(issues({ systemMessage: { content: 's'.repeat(200_001) } })).toEqual([
        { path: ['systemMessage', 'content'], message: 'Too big: expected string to have <=200000 characters' },
      ]);
    });

    it('an empty agent prompt', () => {
      expect(issues({ customAgents: [{ name: 'a', prompt: '' }] })).toEqual([
        { path: ['customAgents', 0, 'prompt'], message: 'Too small: expected string to have >=1 characters' },
      ]);
    });

    it('an empty tool description', () => {
      expect(issues({ tools: [webhookTool({ description: '' })] })).toEqual([
        { path: ['tools', 0, 'description'], message: 'Too small: expected string to have >=1 characters' },
      ]);
    });

    it('more than 128 tools', () => {
      const tools = Array.from({ length: 129 }, (_, i) => webhookTool({ name: `t${i}` }));
      expect(issues({ tools })).toEqual([{ path: ['tools'], message: 'Too big: expected array to have <=128 items' }]);
    });

    it('more than 64 agents', () => {
      const customAgents = Array.from({ length: 65 }, (_, i) => ({ name: `a${i}`, prompt: 'p' }));
      expect(issues({ customAgents })).toEqual([{ path: ['customAgents'], message: 'Too big: expected array to have <=64 items' }]);
    });

    it.each<[string, unknown, PropertyKey[], string]>([
      ['a non-object body', null, [], 'Invalid input: expected object, received null'],
      ['tools as a string', { tools: 'save_result' }, ['tools'], 'Invalid input: expected array, received string'],
      ['a numeric model', { model: 42 }, ['model'], 'Invalid input: expected string, received number'],
      ['an empty model', { model: '' }, ['model'], 'Too small: expected string to have >=1 characters'],
      [
        'a string approveOwnTools',
        { permissionPolicy: { approveOwnTools: 'yes' } },
        ['permissionPolicy', 'approveOwnTools'],
        'Invalid input: expected boolean, received string',
      ],
      [
        'agent tools as a string',
        { customAgents: [{ name: 'a', prompt: 'p', tools: 'save_result' }] },
        ['customAgents', 0, 'tools'],
        'Invalid input: expected array, received string',
      ],
      [
        'parameters as an array',
        { tools: [webhookTool({ parameters: ['x'] })] },
        ['tools', 0, 'parameters'],
        'Invalid input: expected record, received array',
      ],
      [
        'an unknown systemMessage mode',
        { systemMessage: { mode: 'prepend', content: 'x' } },
        ['systemMessage', 'mode'],
        'Invalid option: expected one of "append"|"replace"',
      ],
      [
        'an unknown permission kind',
        { permissionPolicy: { allowKinds: ['root'] } },
        ['permissionPolicy', 'allowKinds', 0],
        'Invalid option: expected one of "shell"|"write"|"read"|"url"|"mcp"|"custom-tool"|"memory"',
      ],
    ])('%s', (_label, input, path, message) => {
      expect(issues(input)).toEqual([{ path, message }]);
    });
  });
});

describe('sub-schemas', () => {
  it('toolSpecSchema requires a handler', () => {
    const { handler: _h, ...noHandler } = webhookTool();
    const result = toolSpecSchema.safeParse(noHandler);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path)).toContainEqual(['handler']);
  });

  it('customAgentSchema requires a prompt', () => {
    const result = customAgentSchema.safeParse({ name: 'a' });
    expect(result.success).toBe(false);
    expect(result.error?.issues).toEqual([expect.objectContaining({ path: ['prompt'], message: 'Invalid input: expected string, received undefined' })]);
  });
});
