import { type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

/**
 * spec: agent-teams, session flow, with the real Copilot CLI: a team's main agent delegates to the
 * sub-agent selected for the session; the de-selected one is never offered; the sub-agent's own
 * model is what the model server receives for its turns.
 */
describe('an agent team on the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);

  beforeAll(async () => {
    await model.start();
    model.setScript([
      {
        name: 'lead delegates to the reviewer',
        who: 'parent',
        lastIsToolResult: false,
        answer: {
          toolCalls: [
            {
              name: 'task',
              arguments: { agent_type: 'code-reviewer', name: 'review-1', description: 'Review', prompt: 'Review the change.', mode: 'sync' },
            },
          ],
        },
      },
      { name: 'reviewer answers', who: 'child', answer: { text: 'REVIEW_DONE: looks good' } },
      { name: 'lead wraps up', who: 'parent', lastIsToolResult: true, answer: { text: 'LEAD_DONE' } },
    ]);
    running = await startRealCliApp(model);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  it('delegates to the selected sub-agent on its own model and never offers the de-selected one', async () => {
    const agents = [
      {
        id: 'code-reviewer',
        name: 'Code Reviewer',
        description: 'Reviews code changes',
        system_message: { mode: 'replace', content: 'REVIEWER_PROMPT You review code.' },
        model: 'reviewer-model-x',
      },
      { id: 'doc-writer', name: 'Doc Writer', description: 'Writes documentation', system_message: { mode: 'replace', content: 'You write docs.' } },
      {
        id: 'engineering-lead',
        name: 'Engineering Lead',
        description: 'Leads',
        system_message: { mode: 'append', content: 'LEAD_RULES delegate reviews.' },
        sub_agents: ['code-reviewer', 'doc-writer'],
      },
    ];
    for (const agent of agents) expect((await http('POST', '/api/agents', agent)).status).toBe(201);

    const created = await http('POST', '/api/sessions', { agentId: 'engineering-lead', subAgents: ['code-reviewer'] });
    expect(created.status).toBe(201);
    const id = created.body.sessionId as string;
    await http('POST', `/api/sessions/${id}/messages`, { prompt: 'Please get the change reviewed.' });
    await waitUntil(async () => (await http('GET', `/api/sessions/${id}`)).body.status === 'idle', 'the turn to end', 60_000);

    const session = (await http('GET', `/api/sessions/${id}`)).body;
    expect(session.subAgentLaunches).toEqual([expect.objectContaining({ agentName: 'code-reviewer', status: 'completed' })]);

    const parentTurns = model.requests.filter((r) => r.who === 'parent');
    const childTurns = model.requests.filter((r) => r.who === 'child');
    expect(childTurns.length).toBeGreaterThan(0);
    // The sub-agent's own model (not the session's) is what its turns ask for.
    expect(childTurns.every((r) => r.model === 'reviewer-model-x')).toBe(true);
    expect(parentTurns.every((r) => r.model === 'gpt-4.1')).toBe(true);
    expect(childTurns[0].systemText).toContain('REVIEWER_PROMPT');
    // The main agent's system message was appended to the CLI's own prompt.
    expect(parentTurns[0].systemText).toContain('LEAD_RULES');
    // The `task` tool offered to the main agent lists the selected sub-agent, never the de-selected one.
    const offered = JSON.stringify(parentTurns[0].body.tools);
    expect(offered).toContain('code-reviewer');
    expect(offered).not.toContain('doc-writer');
  }, 120_000);
});
