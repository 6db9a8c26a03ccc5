import { builtinToolChoices, defaultBuiltinTools, mcpServerChoices, sessionToolOverrides, sessionToolsOf } from './tool-choices';

const KNOWN = ['bash', 'view', 'edit', 'web_fetch'];
const open = { builtin: [], excludedBuiltin: [] };

describe('the Tools selector of a new session', () => {
  it('checks what the agent allows: its allowlist, else every known tool but the excluded', () => {
    expect(defaultBuiltinTools(KNOWN, open)).toEqual(KNOWN);
    expect(defaultBuiltinTools(KNOWN, { builtin: [], excludedBuiltin: ['web_fetch'] })).toEqual(['bash', 'view', 'edit']);
    expect(defaultBuiltinTools(KNOWN, { builtin: ['view'], excludedBuiltin: [] })).toEqual(['view']);
  });

  it('offers every known tool and any the agent names that the list does not know', () => {
    expect(builtinToolChoices(KNOWN, { builtin: ['view', 'future_tool'], excludedBuiltin: [] }).map((c) => c.value)).toEqual([...KNOWN, 'future_tool']);
  });

  it('tells createSession nothing while the boxes are still the agent’s own, in any order', () => {
    expect(
      sessionToolOverrides({ known: KNOWN, tools: open, agentMcpServers: ['github'], checkedTools: [...KNOWN].reverse(), checkedMcpServers: ['github'] }),
    ).toEqual({});
  });

  it('excludes what was unchecked when the agent has no allowlist, so newer tools stay available', () => {
    expect(sessionToolOverrides({ known: KNOWN, tools: open, agentMcpServers: [], checkedTools: ['view', 'edit'], checkedMcpServers: [] })).toEqual({
      excludedTools: ['bash', 'web_fetch'],
    });
    // Re-checking a tool the agent excludes lifts the exclusion.
    expect(
      sessionToolOverrides({
        known: KNOWN,
        tools: { builtin: [], excludedBuiltin: ['bash'] },
        agentMcpServers: [],
        checkedTools: KNOWN,
        checkedMcpServers: [],
      }),
    ).toEqual({ excludedTools: [] });
  });

  it('sends exactly the checked tools when the agent has an allowlist, none included', () => {
    const tools = { builtin: ['view'], excludedBuiltin: ['bash'] };
    expect(sessionToolOverrides({ known: KNOWN, tools, agentMcpServers: [], checkedTools: ['view', 'edit'], checkedMcpServers: [] })).toEqual({
      availableTools: ['view', 'edit'],
      excludedTools: [],
    });
    expect(sessionToolOverrides({ known: KNOWN, tools, agentMcpServers: [], checkedTools: [], checkedMcpServers: [] })).toEqual({
      availableTools: [],
      excludedTools: [],
    });
  });
});

describe('the MCP selector of a new session', () => {
  const servers = [
    { name: 'github', type: 'http' },
    { name: 'files', type: 'local' },
  ];

  it('lists the registry, and flags a picked name the registry no longer has', () => {
    expect(mcpServerChoices(servers, ['github'])).toEqual([
      { value: 'github', label: 'github', hint: 'http' },
      { value: 'files', label: 'files', hint: 'local' },
    ]);
    expect(mcpServerChoices(servers, ['gone'])[2]).toMatchObject({ value: 'gone', problem: expect.stringContaining('not in the MCP registry') });
  });

  it('sends the checked servers once they differ from the agent’s, none included', () => {
    const base = { known: KNOWN, tools: open, checkedTools: KNOWN };
    expect(sessionToolOverrides({ ...base, agentMcpServers: ['github'], checkedMcpServers: [] })).toEqual({ mcpServers: [] });
    expect(sessionToolOverrides({ ...base, agentMcpServers: [], checkedMcpServers: ['files'] })).toEqual({ mcpServers: ['files'] });
  });
});

describe('what a session runs with', () => {
  it('reads its tools and MCP servers off the stored config, tolerating what is missing', () => {
    expect(sessionToolsOf({ availableTools: ['view'], excludedTools: ['bash'], mcpServers: ['github'] })).toEqual({
      availableTools: ['view'],
      excludedTools: ['bash'],
      mcpServers: ['github'],
    });
    expect(sessionToolsOf({ model: 'gpt-4.1' })).toEqual({ availableTools: undefined, excludedTools: [], mcpServers: [] });
    expect(sessionToolsOf(null)).toEqual({ availableTools: undefined, excludedTools: [], mcpServers: [] });
  });
});
