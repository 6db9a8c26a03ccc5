/**
 * `npm run demo`: the delegation engine offline, on the real Copilot CLI and the project's scripted
 * model server. A lead agent delegates to a researcher (foreground: it waits for the answer) and to a
 * writer (background: it is told later); then the lineage tree is printed with statuses and usage.
 */
import 'reflect-metadata';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createSwitchboardApp } from '../src/bootstrap';
import { loadConfig } from '../src/config/switchboard-config';
import { ScriptedModelServer } from '../test/fixtures/scripted-model-server';

/** GET /api/runs/:id/tree as the REST API answers it (camelCase; docs/delegation.md), the parts printed here. */
interface RunTreeNode {
  kind: 'run';
  runId: string;
  agentId: string;
  status: string;
  background: boolean;
  output: string | null;
  usage: { totalTokens: number; toolCalls: number; durationMs: number };
  subtreeUsage: { totalTokens: number };
  children: Array<RunTreeNode | CliSubagentNode>;
}
interface CliSubagentNode {
  kind: 'cli_subagent';
  agentName: string;
  status: string;
  usage: { totalTokens: number | null };
}

const AGENTS = [
  {
    id: 'lead',
    name: 'Lead',
    description: 'Plans the work and delegates it',
    system_message: { mode: 'append', content: 'DEMO_LEAD You lead a small team; delegate with agent_run.' },
  },
  { id: 'researcher', name: 'Researcher', description: 'Finds facts', system_message: { mode: 'append', content: 'DEMO_RESEARCHER You find facts.' } },
  { id: 'writer', name: 'Writer', description: 'Writes prose', system_message: { mode: 'append', content: 'DEMO_WRITER You write.' } },
];

function script(model: ScriptedModelServer): void {
  model.setScript([
    {
      name: 'lead delegates',
      systemIncludes: 'DEMO_LEAD',
      lastIsToolResult: false,
      answer: {
        toolCalls: [
          { name: 'agent_run', arguments: { agent_id: 'researcher', prompt: 'List three facts about event sourcing.' } },
          { name: 'agent_run', arguments: { agent_id: 'writer', prompt: 'Draft a tagline for Switchboard.', background: true } },
        ],
      },
      usage: { prompt_tokens: 420, completion_tokens: 60 },
    },
    {
      name: 'lead sums up',
      systemIncludes: 'DEMO_LEAD',
      lastIsToolResult: true,
      answer: { text: 'The facts are in; the tagline is on its way.' },
      usage: { prompt_tokens: 610, completion_tokens: 25 },
    },
    {
      name: 'researcher',
      systemIncludes: 'DEMO_RESEARCHER',
      answer: { text: '1. State is a log of events. 2. Read models are projections. 3. Replays rebuild them.' },
      delayMs: 400,
      usage: { prompt_tokens: 300, completion_tokens: 40 },
    },
    {
      name: 'writer',
      systemIncludes: 'DEMO_WRITER',
      answer: { text: 'Switchboard: every delegation, on the record.' },
      delayMs: 1500,
      usage: { prompt_tokens: 280, completion_tokens: 12 },
    },
  ]);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-demo-'));
  const model = await new ScriptedModelServer().start();
  script(model);
  const base = loadConfig({ SWITCHBOARD_DB: path.join(dir, 'demo.db'), LOG_LEVEL: 'warn' });
  const app = await createSwitchboardApp({
    ...base,
    port: 0,
    host: '127.0.0.1',
    apiToken: undefined,
    cli: {
      ...base.cli,
      home: path.join(dir, 'copilot-home'),
      provider: { type: 'openai', baseUrl: model.baseUrl, apiKey: 'scripted' },
      defaultModel: 'gpt-4.1',
    },
  });
  try {
    await app.listen(0, '127.0.0.1');
    const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const call = async (method: string, route: string, body?: unknown) => {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the demo reads the API's JSON as is
      const json = (await response.json()) as any;
      if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${JSON.stringify(json)}`);
      return json;
    };

    for (const agent of AGENTS) await call('POST', '/api/agents', agent);
    console.log(`Switchboard on ${url} (real Copilot CLI over stdio), scripted model on ${model.baseUrl}\n`);
    console.log('POST /api/runs {agentId: "lead", background: false} ...');
    const lead = await call('POST', '/api/runs', { agentId: 'lead', prompt: 'Prepare a one-line pitch backed by facts.', background: false });
    console.log(`lead ${lead.status}: ${lead.output}\n`);

    // The writer runs in the background: wait for it before printing the final tree.
    for (let i = 0; i < 300; i++) {
      const { runs } = (await call('GET', `/api/runs?rootRunId=${lead.runId}`)) as { runs: Array<{ status: string }> };
      if (runs.every((r) => r.status !== 'running')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const tree = (await call('GET', `/api/runs/${lead.runId}/tree`)) as RunTreeNode;
    console.log(`GET /api/runs/${lead.runId}/tree\n`);
    printTree(tree);
  } finally {
    await app.close();
    await model.stop();
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}

function printTree(node: RunTreeNode, prefix = '', last = true, root = true): void {
  const branch = root ? '' : last ? '└─ ' : '├─ ';
  const mode = node.background ? 'background' : 'foreground';
  const usage = `tokens ${node.usage.totalTokens} (subtree ${node.subtreeUsage.totalTokens}), tool calls ${node.usage.toolCalls}, ${(node.usage.durationMs / 1000).toFixed(1)} s`;
  console.log(`${prefix}${branch}${node.agentId} [${node.status}] ${root ? 'root' : mode} run ${node.runId.slice(-8)}  ${usage}`);
  if (node.output)
    console.log(
      `${prefix}${root ? '' : last ? '   ' : '│  '}   output: ${JSON.stringify(node.output.length > 80 ? `${node.output.slice(0, 80)}…` : node.output)}`,
    );
  const childPrefix = prefix + (root ? '' : last ? '   ' : '│  ');
  node.children.forEach((child, i) => {
    const isLast = i === node.children.length - 1;
    if (child.kind === 'run') printTree(child, childPrefix, isLast, false);
    else printSubagent(child, childPrefix, isLast);
  });
}

function printSubagent(node: CliSubagentNode, prefix: string, last: boolean): void {
  console.log(`${prefix}${last ? '└─ ' : '├─ '}${node.agentName} [${node.status}] CLI sub-agent, tokens ${node.usage.totalTokens ?? '?'}`);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
