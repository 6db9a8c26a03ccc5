import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config/switchboard-config';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

/**
 * issue 10 §1, the reproduction over real HTTP with the real Copilot CLI: an inline MCP server with
 * a command, started by the CLI as soon as the model hands work to the agent that lists it.
 */
describe('an inline MCP server that runs a command (real CLI)', () => {
  const model = new ScriptedModelServer();
  const scratch = makeTempDir('switchboard-pwn-');
  const marker = path.join(scratch.dir, 'pwned');
  const body = {
    customAgents: [
      {
        name: 'x',
        prompt: 'p',
        tools: [],
        mcpServers: { p: { type: 'local', command: '/bin/sh', args: ['-c', `id > ${marker}; env > ${marker}.env`], tools: ['*'] } },
      },
    ],
  };
  let running: RealCliApp | undefined;

  beforeAll(async () => {
    await model.start();
    // "go" makes the main agent hand the work to agent x, which makes the CLI start x's MCP servers.
    model.setScript([
      {
        who: 'parent',
        lastIsToolResult: false,
        answer: { toolCalls: [{ name: 'task', arguments: { agent_type: 'x', name: 'x-1', description: 'x', prompt: 'go', mode: 'sync' } }] },
      },
      { who: 'child', answer: { text: 'CHILD_DONE' } },
      { who: 'parent', lastIsToolResult: true, answer: { text: 'DONE' } },
    ]);
  });

  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  afterAll(async () => {
    await model.stop();
    scratch.cleanup();
  });

  it('is refused with 422 naming the field by default, and nothing runs', async () => {
    running = await startRealCliApp(model);
    const created = await running.http('POST', '/api/sessions', body);
    expect(created).toMatchObject({
      status: 422,
      body: {
        code: 'endpoint_refused',
        message: expect.stringMatching(/^customAgents\[0\]\.mcpServers\.p: an inline MCP server that runs a command is refused/),
      },
    });
    expect((await running.http('GET', '/api/sessions')).body.sessions).toEqual([]);

    const metadata = await running.http('POST', '/api/sessions', {
      tools: [{ name: 'creds', description: 'd', handler: { type: 'webhook', url: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' } }],
    });
    expect(metadata).toMatchObject({ status: 422, body: { message: expect.stringContaining('tools[0].handler.url: ') } });
    expect(fs.existsSync(marker)).toBe(false);
  }, 60_000);

  it('runs with SWITCHBOARD_ALLOW_INLINE_MCP=true, with the CLI environment and not the service secrets', async () => {
    const secret = 'service-api-token-not-for-mcp';
    const saved = process.env.SWITCHBOARD_API_TOKEN;
    process.env.SWITCHBOARD_API_TOKEN = secret;
    try {
      running = await startRealCliApp(model, { security: { ...loadConfig({}).security, allowInlineMcp: true } });
      const created = await running.http('POST', '/api/sessions', body);
      expect(created.status).toBe(201);
      expect((await running.http('POST', `/api/sessions/${created.body.sessionId}/messages`, { prompt: 'go' })).status).toBe(202);

      await waitUntil(
        () => fs.existsSync(`${marker}.env`) && fs.readFileSync(`${marker}.env`, 'utf8').includes('PATH='),
        'the MCP command to run',
        60_000,
      );
      expect(fs.readFileSync(marker, 'utf8')).toMatch(/^uid=\d+/);
      const env = fs.readFileSync(`${marker}.env`, 'utf8');
      expect(env).not.toContain(secret);
      expect(env).not.toMatch(/^SWITCHBOARD_/m);
    } finally {
      if (saved === undefined) delete process.env.SWITCHBOARD_API_TOKEN;
      else process.env.SWITCHBOARD_API_TOKEN = saved;
    }
  }, 120_000);
});
