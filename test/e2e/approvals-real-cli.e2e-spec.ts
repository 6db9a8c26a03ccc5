import { loadConfig } from '../../src/config/switchboard-config';
import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

const lastText = (r: { lastMessage: Json }) => JSON.stringify(r.lastMessage ?? '');

/**
 * issue 14 through the real @github/copilot binary: a sub-agent started with the built-in `task` tool
 * runs a shell command; the session's policy asks a person for `shell`, so the CLI's permission
 * request waits in GET /api/approvals until it is decided over REST. Approved, the command runs
 * (its output reaches the model); denied, the model reads the reason.
 */
describe('approvals through the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);

  beforeAll(async () => {
    await model.start();
    model.setScript([
      // A run started with agent_run (its own CLI session) runs a shell command: marked by its task.
      {
        name: 'the run runs a command',
        lastIsToolResult: false,
        messagesInclude: 'RUN_TASK_SHELL',
        when: (ctx) => !ctx.allText.includes('SCENARIO_RUN'),
        answer: { toolCalls: [{ name: 'bash', arguments: { command: 'echo RUN_$((20+1))', description: 'print a number' } }] },
      },
      {
        name: 'the run reports',
        lastIsToolResult: true,
        messagesInclude: 'RUN_TASK_SHELL',
        when: (ctx) => !ctx.allText.includes('SCENARIO_RUN'),
        answer: { text: 'RUN_DONE' },
      },
      {
        name: 'the lead delegates with agent_run',
        who: 'parent',
        lastIsToolResult: false,
        messagesInclude: 'SCENARIO_RUN',
        answer: { toolCalls: [{ name: 'agent_run', arguments: { agent_id: 'operator-agent', prompt: 'RUN_TASK_SHELL run it' } }] },
      },
      { name: 'the lead wraps up', who: 'parent', lastIsToolResult: true, messagesInclude: 'SCENARIO_RUN', answer: { text: 'LEAD_DONE' } },
      {
        name: 'parent delegates',
        who: 'parent',
        lastIsToolResult: false,
        answer: {
          toolCalls: [
            {
              name: 'task',
              arguments: { agent_type: 'operator', name: 'op-1', description: 'Run two commands', prompt: 'Run the commands.', mode: 'sync' },
            },
          ],
        },
      },
      {
        name: 'child runs the first command',
        who: 'child',
        lastIsToolResult: false,
        times: 1,
        answer: { toolCalls: [{ name: 'bash', arguments: { command: 'echo FIRST_$((40+2))', description: 'print a number' } }] },
      },
      {
        name: 'child runs the second command',
        who: 'child',
        lastIsToolResult: true,
        times: 1,
        when: (ctx) => ctx.allText.includes('FIRST_42'),
        answer: { toolCalls: [{ name: 'bash', arguments: { command: 'echo SECOND_$((40+3))', description: 'print another number' } }] },
      },
      { name: 'child reports', who: 'child', lastIsToolResult: true, answer: { text: 'CHILD_DONE' } },
      { name: 'parent wraps up', who: 'parent', lastIsToolResult: true, answer: { text: 'PARENT_DONE' } },
    ]);
    running = await startRealCliApp(model, { security: { ...loadConfig({}).security, allowHostPermissions: true } });
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  it("holds a sub-agent's shell request until a person decides: approved it runs, denied the model reads the reason", async () => {
    const created = await http('POST', '/api/sessions', {
      customAgents: [
        { name: 'operator', displayName: 'Operator', description: 'Runs shell commands', prompt: 'You run shell commands with bash.', infer: true },
      ],
      permissionPolicy: { askKinds: ['shell'] },
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'Ask the operator to run the commands.' })).status).toBe(202);

    const pending = (n: number) =>
      waitUntil(
        async () => {
          const r = await http('GET', `/api/approvals?sessionId=${sessionId}&status=pending`);
          return r.body.approvals.length === 1 && r.body.approvals[0] ? r.body.approvals[0] : undefined;
        },
        `pending approval ${n}`,
        60_000,
      );

    const first = await pending(1);
    expect(first).toMatchObject({
      kind: 'shell',
      sessionId: sessionId,
      agentName: 'operator',
      lineagePath: ['main', 'operator'],
      childSessionId: expect.any(String),
    });
    expect(JSON.stringify(first.arguments)).toContain('FIRST_$((40+2))');
    // Nothing ran while it waited: the model has not seen the command's output.
    expect(model.requests.some((r) => r.allText.includes('FIRST_42'))).toBe(false);
    expect((await http('POST', `/api/approvals/${first.id}`, { decision: 'approve', reason: 'harmless' })).body).toMatchObject({
      status: 'decided',
      decision: 'approve',
    });

    const second = await pending(2);
    expect(second.id).not.toBe(first.id);
    expect(JSON.stringify(second.arguments)).toContain('SECOND_$((40+3))');
    // The approved command ran: its output is what the sub-agent's model read next.
    expect(model.requests.some((r) => r.who === 'child' && r.lastIsToolResult && lastText(r).includes('FIRST_42'))).toBe(true);
    await http('POST', `/api/approvals/${second.id}`, { decision: 'deny', reason: 'NOT_ON_FRIDAYS' });

    await waitUntil(() => model.requests.find((r) => r.who === 'parent' && r.lastIsToolResult), 'the parent to get the task result', 60_000);
    const afterDenial = model.requests.find((r) => r.who === 'child' && r.lastIsToolResult && lastText(r).includes('NOT_ON_FRIDAYS'));
    expect(afterDenial).toBeDefined();
    expect(model.requests.some((r) => r.allText.includes('SECOND_43'))).toBe(false);

    const all = await http('GET', `/api/approvals?sessionId=${sessionId}`);
    expect(all.body.approvals.map((a: Json) => [a.status, a.decision])).toEqual([
      ['decided', 'deny'],
      ['decided', 'approve'],
    ]);
    expect((await http('DELETE', `/api/sessions/${sessionId}`)).status).toBe(200);
  }, 180_000);

  it("holds a request of a run started with agent_run under its owner's policy, with the run's lineage", async () => {
    expect((await http('POST', '/api/agents', { id: 'operator-agent', name: 'Operator', system_message: { content: 'You run commands.' } })).status).toBe(
      201,
    );
    const created = await http('POST', '/api/sessions', { delegation: true, permissionPolicy: { askKinds: ['shell'] } });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'SCENARIO_RUN have the operator run it' })).status).toBe(202);

    // Without the owner's policy the run's session would deny shell outright: nothing would wait.
    const asked = await waitUntil(
      async () => (await http('GET', '/api/approvals?status=pending')).body.approvals.find((a: Json) => a.runId),
      "the run's pending approval",
      60_000,
    );
    const runId = asked.runId as string;
    expect(asked).toMatchObject({ kind: 'shell', sessionId: `sub-agent-${runId}`, rootRunId: runId });
    expect(asked.lineagePath[asked.lineagePath.length - 1]).toBe('operator-agent');
    expect(model.requests.some((r) => r.allText.includes('RUN_21'))).toBe(false);
    expect((await http('GET', `/api/runs/${runId}`)).body.status).toBe('running');

    await http('POST', `/api/approvals/${asked.id}`, { decision: 'approve', reason: 'fine' });
    const run = await waitUntil(
      async () => {
        const r = (await http('GET', `/api/runs/${runId}`)).body;
        return r.status === 'completed' ? r : undefined;
      },
      'the run to complete',
      60_000,
    );
    expect(run.output).toContain('RUN_DONE');
    expect(model.requests.some((r) => r.lastIsToolResult && lastText(r).includes('RUN_21'))).toBe(true);
    expect((await http('DELETE', `/api/sessions/${sessionId}`)).status).toBe(200);
  }, 180_000);
});
