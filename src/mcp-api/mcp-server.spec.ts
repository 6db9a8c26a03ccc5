import type { DiscoveryService } from '@nestjs/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { Contributes, NotFoundError } from '../common';
import { ACCESS_RULES, AccessPolicy, type AccessRuleSet, type Principal } from '../identity';
import { SwitchboardMcpServer } from './mcp-server';
import { MCP_TOOLS, mcpTool, type McpToolSet } from './mcp-tools';

@Contributes(MCP_TOOLS)
class EchoTools implements McpToolSet {
  readonly tools = [
    mcpTool({
      name: 'echo',
      title: 'Echo',
      description: 'Says it back, step by step',
      input: { words: z.string().max(10) },
      readOnly: true,
      call: async ({ words }, context) => {
        await context.progress(`heard ${words}`);
        if (words === 'missing') throw new NotFoundError('Nothing called missing');
        return { text: words.toUpperCase(), structured: { words } };
      },
    }),
    mcpTool({ name: 'change', title: 'Change', description: 'Changes something', input: {}, call: async () => ({ text: 'changed' }) }),
  ];
  readonly resources = [
    {
      name: 'thing',
      title: 'A thing',
      description: 'A thing by id',
      uriTemplate: 'test://things/{id}',
      read: async ({ id }: Record<string, string>) => ({ id }),
    },
  ];
}

@Contributes(ACCESS_RULES)
class EchoAccess implements AccessRuleSet {
  readonly rules = { 'Mcp.echo': ['read'], 'Mcp.change': ['operate'], 'Mcp.resource.thing': ['read'] } as const;
}

const viewer: Principal = { kind: 'key', id: 'k1', name: 'reader', role: 'viewer' } as Principal;

/** The server as a client meets it, over the SDK's in-memory transport: the tools from the slot, each under its access rule. */
async function clientOf(principal: Principal, sets: object[] = [new EchoTools()]): Promise<Client> {
  const providers = [...sets, new EchoAccess()].map((instance) => ({ instance, metatype: instance.constructor }));
  const discovery = { getProviders: () => providers } as unknown as DiscoveryService;
  const mcp = new SwitchboardMcpServer(discovery, new AccessPolicy(discovery));
  mcp.onModuleInit();
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.serverFor(principal, '1.0.0').connect(serverSide);
  const client = new Client({ name: 'spec', version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

describe('SwitchboardMcpServer', () => {
  it('offers every contributed tool and answers a call with its text, structured content and progress', async () => {
    const client = await clientOf(viewer);
    expect((await client.listTools()).tools.map((t) => [t.name, t.annotations?.readOnlyHint])).toEqual([
      ['echo', true],
      ['change', false],
    ]);
    const progress: string[] = [];
    const result = (await client.callTool({ name: 'echo', arguments: { words: 'hi' } }, undefined, {
      onprogress: (p) => progress.push(p.message ?? ''),
    })) as CallToolResult;
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'HI' }], structuredContent: { words: 'hi' } });
    expect(progress).toEqual(['heard hi']);
  });

  it("refuses a tool the caller's role may not call, as a tool error naming the permission", async () => {
    const result = (await (await clientOf(viewer)).callTool({ name: 'change', arguments: {} })) as CallToolResult;
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([
      { type: 'text', text: 'forbidden: Mcp.change needs the operate permission (roles: operator, admin); reader has the viewer role' },
    ]);
  });

  it('answers a domain error and bad arguments as tool errors that say what to fix, never a protocol error', async () => {
    const client = await clientOf(viewer);
    const missing = (await client.callTool({ name: 'echo', arguments: { words: 'missing' } })) as CallToolResult;
    expect(missing).toMatchObject({
      isError: true,
      content: [{ text: 'not_found: Nothing called missing' }],
      structuredContent: { error: { code: 'not_found' } },
    });
    const tooLong = (await client.callTool({ name: 'echo', arguments: { words: 'far too many words' } })) as CallToolResult;
    expect(tooLong.isError).toBe(true);
    expect(JSON.stringify(tooLong.content)).toContain('words');
  });

  it('reads a resource through its template as JSON, under its access rule', async () => {
    const read = await (await clientOf(viewer)).readResource({ uri: 'test://things/t-1' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)).toEqual({ id: 't-1' });
  });

  it('refuses to start when two contexts offer the same tool name', async () => {
    await expect(clientOf(viewer, [new EchoTools(), new EchoTools()])).rejects.toThrow('two contexts offer the MCP tool echo');
  });
});
