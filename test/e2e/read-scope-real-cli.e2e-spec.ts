import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type Json, type JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { type RequestContext, ScriptedModelServer } from '../fixtures/scripted-model-server';
import { waitUntil } from '../fixtures/wait-until';

/** The text of the last message the model got (the tool's result after a tool call). */
const lastText = (r: RequestContext) => JSON.stringify(r.lastMessage ?? '');

/**
 * issue 22 §2 through the real @github/copilot binary: `allowKinds: ["read"]` lets the model's `view`
 * read a file inside the session's working directory, and nothing outside it (a file beside it, or
 * the service's /proc/<pid>/environ): the CLI's read request is denied with a reason naming the
 * working directory and SWITCHBOARD_ALLOW_HOST_PERMISSIONS, and the model never sees the content.
 */
describe('a read the permission policy allows, on the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  let outside: string;
  const http: JsonHttp = (...args) => running.http(...args);
  const workingDirectory = () => running.app.config.cli.workingDirectory;

  beforeAll(async () => {
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'switchboard-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), 'OUTSIDE_SECRET_7\n');
    await model.start();
    const viewOf = (marker: string, file: () => string) => ({
      name: `view ${marker}`,
      who: 'parent' as const,
      lastIsToolResult: false,
      lastMessageIncludes: marker,
      answer: () => ({ toolCalls: [{ name: 'view', arguments: { path: file() } }] }),
    });
    model.setScript([
      viewOf('READ_INSIDE', () => path.join(workingDirectory(), 'notes', 'inside.txt')),
      viewOf('READ_OUTSIDE', () => path.join(outside, 'secret.txt')),
      viewOf('READ_ENVIRON', () => `/proc/${process.pid}/environ`),
      { name: 'report', who: 'parent', lastIsToolResult: true, answer: { text: 'DONE' } },
    ]);
    running = await startRealCliApp(model);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  /** Sends the marker, waits for the model's turn after the tool, and returns what the tool gave it. */
  async function readThrough(sessionId: string, marker: string): Promise<string> {
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: marker })).status).toBe(202);
    const [afterTool] = await model.waitForRequests((r) => r.lastIsToolResult && r.allText.includes(marker), 1, 60_000);
    return lastText(afterTool);
  }

  /** The session's `permission.decided` records for `read`, oldest first. */
  async function readDecisions(sessionId: string): Promise<Json[]> {
    const events = (await http('GET', `/api/streams/session-${sessionId}/events?limit=500`)).body.events as Json[];
    return events.filter((e) => e.type === 'permission.decided' && e.data.arguments?.kind === 'read').map((e) => e.data);
  }

  it('reads inside the working directory, and is denied outside it with a reason', async () => {
    const created = await http('POST', '/api/sessions', { permissionPolicy: { allowKinds: ['read'] } });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    // The session says where it works.
    const view = await http('GET', `/api/sessions/${sessionId}`);
    expect(view.body.workingDirectory).toBe(workingDirectory());
    fs.mkdirSync(path.join(workingDirectory(), 'notes'), { recursive: true });
    fs.writeFileSync(path.join(workingDirectory(), 'notes', 'inside.txt'), 'INSIDE_CONTENT_42\n');

    expect(await readThrough(sessionId, 'READ_INSIDE')).toContain('INSIDE_CONTENT_42');

    const outsideResult = await readThrough(sessionId, 'READ_OUTSIDE');
    expect(outsideResult).not.toContain('OUTSIDE_SECRET_7');
    const environResult = await readThrough(sessionId, 'READ_ENVIRON');
    expect(environResult).not.toContain('PATH=');

    const decisions = await waitUntil(async () => {
      const all = await readDecisions(sessionId);
      return all.filter((d) => d.outcome === 'denied').length >= 2 ? all : undefined;
    }, 'the denied reads to be recorded');
    const denied = decisions.filter((d) => d.outcome === 'denied');
    expect(denied.map((d) => d.reason)).toEqual([
      expect.stringContaining(`${path.join(outside, 'secret.txt')} is outside the session's working directory ${workingDirectory()}`),
      expect.stringContaining(`/proc/${process.pid}/environ is outside the session's working directory`),
    ]);
    for (const d of denied) expect(d.reason).toContain('SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true');
    // The model read the reason the CLI was given.
    expect(outsideResult).toContain('outside the session');
    expect((await http('DELETE', `/api/sessions/${sessionId}`)).status).toBe(200);
  }, 180_000);
});
