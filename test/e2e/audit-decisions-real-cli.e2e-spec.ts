import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Json, type JsonHttp, jsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

/**
 * The audit of built-in tools and of decisions, through the real @github/copilot binary: the model
 * calls the CLI's own `view`, the session's policy asks a person for `read`, and the decision is made
 * once as the console (its `X-Switchboard-Client: console` header) and once as a plain API caller.
 * The audit names the tool, the agent that asked, who decided and why; `toolName=view` finds them.
 */
describe('audit records of built-in tools and of decisions, on the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  const http: JsonHttp = (...args) => running.http(...args);
  const asConsole: JsonHttp = (...args) => jsonHttp(() => running.app.baseUrl, { 'x-switchboard-client': 'console' })(...args);

  beforeAll(async () => {
    await model.start();
    const viewOf = (marker: string) => ({
      name: `view ${marker}`,
      who: 'parent' as const,
      lastIsToolResult: false,
      lastMessageIncludes: marker,
      answer: () => ({ toolCalls: [{ name: 'view', arguments: { path: path.join(running.app.config.cli.workingDirectory, 'notes.txt') } }] }),
    });
    model.setScript([viewOf('READ_ONE'), viewOf('READ_TWO'), { name: 'report', who: 'parent', lastIsToolResult: true, answer: { text: 'DONE' } }]);
    running = await startRealCliApp(model);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
  });

  const pendingApproval = (sessionId: string) =>
    waitUntil(
      async () => {
        const r = await http('GET', `/api/approvals?session_id=${sessionId}&status=pending`);
        const [first]: Json[] = r.body.approvals;
        return first;
      },
      'a pending approval',
      60_000,
    );

  /** Every audit entry that matches the query, once `count` of them are there (the audit log is async). */
  const auditEntries = (query: string, count: number) =>
    waitUntil(
      async () => {
        const entries = (await http('GET', `/api/audit?${query}&limit=1000`)).body.entries as Json[];
        return entries.length >= count && entries;
      },
      `${count} audit entries for ${query}`,
      20_000,
    );

  it('names the built-in tool, the agent that asked, who decided (console or API) and why', async () => {
    const agent = { id: 'note-reader', name: 'Note Reader', description: 'Reads notes', system_message: { mode: 'append', content: 'Read notes.' } };
    expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    const created = await http('POST', '/api/sessions', { agentId: 'note-reader', permissionPolicy: { askKinds: ['read'] } });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    fs.writeFileSync(path.join(running.app.config.cli.workingDirectory, 'notes.txt'), 'NOTE_CONTENT\n');

    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'READ_ONE' })).status).toBe(202);
    const first = await pendingApproval(sessionId);
    // The built-in's permission names only its kind: the tool's name comes from its call.
    expect(first).toMatchObject({ kind: 'read', toolName: 'view', lineagePath: ['note-reader'] });
    expect((await asConsole('POST', `/api/approvals/${first.id}`, { decision: 'approve', reason: 'READ_IS_FINE' })).body).toMatchObject({
      decidedBy: 'console',
    });
    await waitUntil(() => model.requests.find((r) => r.lastIsToolResult && r.allText.includes('NOTE_CONTENT')), 'the view result', 60_000);
    await waitUntil(async () => (await http('GET', `/api/sessions/${sessionId}`)).body.status === 'idle', 'the first turn to end', 60_000);

    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'READ_TWO' })).status).toBe(202);
    const second = await pendingApproval(sessionId);
    expect(second.id).not.toBe(first.id);
    expect((await http('POST', `/api/approvals/${second.id}`, { decision: 'deny' })).body).toMatchObject({ decidedBy: 'api' });

    // Two decisions on `view`, each by whom it was made, with the agent and the reason.
    const decided = await auditEntries(`sessionId=${sessionId}&eventType=permission.decided`, 2);
    expect(decided.map((e) => [e.actor, e.toolName, e.agentId, e.decision])).toEqual([
      ['console', 'view', 'note-reader', 'approved'],
      ['api', 'view', 'note-reader', 'denied'],
    ]);
    const events = (await http('GET', `/api/streams/session-${sessionId}/events?limit=1000`)).body.events as Json[];
    const decisions = events.filter((e) => e.type === 'permission.decided');
    expect(decisions.map((e) => e.data)).toEqual([
      expect.objectContaining({ decidedBy: 'console', toolName: 'view', agentId: 'note-reader', reason: 'approved by console: READ_IS_FINE' }),
      expect.objectContaining({ decidedBy: 'api', toolName: 'view', agentId: 'note-reader', reason: 'denied by api' }),
    ]);
    const approvals = await auditEntries(`sessionId=${sessionId}&eventType=approval.decided`, 2);
    expect(approvals.map((e) => [e.actor, e.toolName, e.agentId, e.decision])).toEqual([
      ['console', 'view', 'note-reader', 'approve'],
      ['api', 'view', 'note-reader', 'deny'],
    ]);

    // toolName=view finds the calls the CLI ran itself, not only the decisions about them.
    const views = await auditEntries(`sessionId=${sessionId}&toolName=view`, 8);
    expect(views.filter((e) => e.eventType === 'cli.tool.execution_start')).toHaveLength(2);
    expect(new Set(views.map((e) => e.toolName))).toEqual(new Set(['view']));
    expect((await http('DELETE', `/api/sessions/${sessionId}`)).status).toBe(200);
  }, 180_000);
});
