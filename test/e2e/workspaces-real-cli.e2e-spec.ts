import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadConfig } from '../../src/config/switchboard-config';
import { git, makeRepository, pairDelegation, writerStep } from '../fixtures/git-repositories';
import { graphqlHttp } from '../fixtures/graphql-client';
import type { Json, JsonHttp } from '../fixtures/json-http';
import { type RealCliApp, startRealCliApp } from '../fixtures/real-cli-app';
import { ScriptedModelServer } from '../fixtures/scripted-model-server';
import { makeTempDir } from '../fixtures/temp-dir';
import { waitUntil } from '../fixtures/wait-until';

/**
 * issue 42 through the real @github/copilot binary: a lead with a workspace delegates background writers;
 * each works in a worktree of its own (started from the lead's), its tool call that wrote a file is a
 * checkpoint, and its branch is merged into the lead's worktree when it completes: both files when they
 * touched different ones, a conflict the lead's worktree keeps (and agent_output names) when they edited
 * the same line. The source repository's branch, index and files are never touched.
 */
describe('workspaces: a git worktree per session and per run, on the real Copilot CLI', () => {
  const model = new ScriptedModelServer();
  let running: RealCliApp;
  let http: JsonHttp;
  let repos: ReturnType<typeof makeTempDir>;
  let repository: string;
  let sourceHead: string;

  beforeAll(async () => {
    repos = makeTempDir('switchboard-repos-');
    repository = makeRepository(path.join(fs.realpathSync(repos.dir), 'shop'));
    sourceHead = git(repository, 'rev-parse', 'HEAD');

    await model.start();
    model.setScript([
      {
        name: 'lead delegates two writers',
        systemIncludes: 'LEAD_WS',
        lastIsToolResult: false,
        answer: pairDelegation('writer'),
      },
      { name: 'lead waits', systemIncludes: 'LEAD_WS', lastIsToolResult: true, answer: { text: 'LEAD_STARTED' } },
      { name: 'writer writes', systemIncludes: 'WRITER_WS', lastIsToolResult: false, answer: writerStep },
      { name: 'writer reports', systemIncludes: 'WRITER_WS', lastIsToolResult: true, answer: { text: 'WRITER_DONE' } },
    ]);
    running = await startRealCliApp(model, {
      security: { ...loadConfig({}).security, allowHostPermissions: true },
      workspaces: { repositories: [repos.dir], dir: path.join(repos.dir, 'worktrees'), retentionMs: 86_400_000 },
      // Whole requests and answers recorded: what a replay or fork plays back.
      modelCalls: { ...loadConfig({}).modelCalls, route: true, content: 'full', contentMaxBytes: 1 << 20 },
    });
    http = running.http;
    for (const agent of [
      { id: 'lead', name: 'Lead', system_message: { mode: 'append', content: 'LEAD_WS you delegate.' } },
      { id: 'writer', name: 'Writer', system_message: { mode: 'append', content: 'WRITER_WS you write files.' } },
    ]) {
      expect((await http('POST', '/api/agents', agent)).status).toBe(201);
    }
  }, 90_000);

  afterAll(async () => {
    await running?.close();
    await model.stop();
    repos?.cleanup();
  });

  /** A lead session on the repository, its message sent, and its two runs once both ended. */
  async function leadWithTwoRuns(marker: string, first: string, second: string): Promise<{ sessionId: string; runs: Json[]; worktree: string }> {
    const created = await http('POST', '/api/sessions', {
      agentId: 'lead',
      delegation: true,
      permissionPolicy: { allowKinds: ['write', 'read'] },
      workspace: { repository },
    });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    const worktree = (await http('GET', `/api/sessions/${sessionId}`)).body.workingDirectory as string;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: `PAIR ${marker} | ${first} | ${second}` })).status).toBe(202);
    const runs = await waitUntil(
      async () => {
        const mine = ((await http('GET', '/api/runs')).body.runs as Json[]).filter((r) => r.ownerThreadId === sessionId);
        return mine.length === 2 && mine.every((r) => r.status !== 'running') ? mine : undefined;
      },
      'both runs ended',
      90_000,
    );
    return { sessionId, runs, worktree };
  }

  /** The run of `runs` whose own changes hold `file`. */
  async function runThatWrote(runs: Json[], file: string): Promise<string> {
    for (const run of runs) {
      const own = (await http('GET', `/api/runs/${run.runId}/changes`)).body.files as Json[];
      if (own.some((f) => f.path === file)) return run.runId as string;
    }
    throw new Error(`no run wrote ${file}`);
  }

  it('gives each run its own worktree, checkpoints the tool call that wrote a file, and merges both into the lead’s', async () => {
    const { sessionId, runs, worktree } = await leadWithTwoRuns('WRITE', 'alpha.txt ALPHA', 'beta.txt BETA');
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed']);

    // The lead works in a worktree of its own on its own branch, not in the repository.
    expect(worktree.startsWith(path.join(repos.dir, 'worktrees'))).toBe(true);
    expect(git(worktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(`switchboard/${sessionId}`);

    const written = new Map<string, string>();
    for (const run of runs) {
      const runId = run.runId as string;
      const history = (await http('GET', `/api/runs/${runId}/checkpoints`)).body;
      const byTool = (history.checkpoints as Json[]).find((c) => c.cause === 'tool');
      // The step that wrote the file is named: its tool call and tool, its commit, the file.
      expect(byTool).toMatchObject({ runId, toolName: 'create', files: [{ status: 'added', additions: 1, deletions: 0 }] });
      expect(byTool.toolCallId).toEqual(expect.any(String));
      const file = byTool.files[0].path as string;
      written.set(file, runId);
      // And who made it: the writer agent, in the answer of one of the run's own model calls.
      const callIds = ((await http('GET', `/api/runs/${runId}/model-calls?limit=100`)).body.calls as Json[]).map((c) => c.callId);
      expect(byTool).toMatchObject({ agentName: 'writer', modelResponseId: expect.any(String) });
      expect(callIds).toContain(byTool.modelCallId);

      // Attribution: the lead's file, line by line, names the run, agent, tool call and model call that wrote it.
      const blame = await http('GET', `/api/sessions/${sessionId}/blame?path=${file}`);
      expect(blame.status).toBe(200);
      expect(blame.body.lines).toEqual([
        {
          line: 1,
          text: file === 'alpha.txt' ? 'ALPHA' : 'BETA',
          origin: 'committed',
          commit: byTool.commit,
          step: {
            sessionId: `sub-agent-${runId}`,
            runId,
            agentName: 'writer',
            cause: 'tool',
            toolCallId: byTool.toolCallId,
            toolName: 'create',
            modelCallId: byTool.modelCallId,
            commit: byTool.commit,
            checkpointedAt: expect.any(String),
          },
        },
      ]);
      expect((await http('GET', `/api/runs/${runId}/changes`)).body).toMatchObject({ scope: 'own', files: [{ path: file, status: 'added' }] });
      // Merged into the lead's worktree, as agent_output tells the lead.
      expect(history.merges).toEqual([expect.objectContaining({ intoSessionId: sessionId, outcome: 'merged', conflicts: [] })]);
      expect((await http('GET', `/api/runs/${runId}/output`)).body.workspace).toMatchObject({ merge: 'merged', files: [file], conflicts: [] });
    }
    expect([...written.keys()].sort()).toEqual(['alpha.txt', 'beta.txt']);
    expect(fs.readFileSync(path.join(worktree, 'alpha.txt'), 'utf8')).toBe('ALPHA\n');
    expect(fs.readFileSync(path.join(worktree, 'beta.txt'), 'utf8')).toBe('BETA\n');

    const changes = (await http('GET', `/api/sessions/${sessionId}/changes`)).body;
    expect((changes.files as Json[]).map((f) => f.path).sort()).toEqual(['alpha.txt', 'beta.txt']);
    const diff = await fetch(`${running.app.baseUrl}/api/sessions/${sessionId}/diff`);
    expect(diff.headers.get('content-type')).toContain('text/x-diff');
    expect(await diff.text()).toMatch(/\+ALPHA[\s\S]*\+BETA|\+BETA[\s\S]*\+ALPHA/);

    // The same over GraphQL: the session's files and diff, a run's own changes and checkpoints.
    const graphql = graphqlHttp(() => running.app.baseUrl);
    const [someFile, someRun] = [...written.entries()][0];
    const answer = await graphql(
      `
        query ($s: ID!, $r: ID!) {
          sessionChanges(sessionId: $s) {
            scope
            files {
              path
              status
              additions
            }
            diff
            merges {
              outcome
              runId
            }
          }
          runChanges(runId: $r) {
            scope
            files {
              path
            }
            checkpoints {
              cause
              toolName
              files {
                path
              }
            }
          }
        }
      `,
      { s: sessionId, r: someRun },
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data.sessionChanges.scope).toBe('subtree');
    expect(answer.body.data.sessionChanges.files.map((f: Json) => f.path).sort()).toEqual(['alpha.txt', 'beta.txt']);
    expect(answer.body.data.sessionChanges.diff).toContain('+ALPHA');
    // The lead's own history says what reached its worktree: both runs, merged.
    expect(answer.body.data.sessionChanges.merges.map((m: Json) => [m.runId, m.outcome]).sort()).toEqual(runs.map((r) => [r.runId, 'merged']).sort());
    expect(answer.body.data.runChanges).toMatchObject({ scope: 'own', files: [{ path: someFile }] });
    expect(answer.body.data.runChanges.checkpoints).toContainEqual({ cause: 'tool', toolName: 'create', files: [{ path: someFile }] });

    // A line the base had reads as such; a path that is not there, a folder, or none at all is refused.
    const readme = (await http('GET', `/api/sessions/${sessionId}/blame?path=README.md`)).body;
    expect(readme.lines[0]).toEqual({ line: 1, text: expect.any(String), origin: 'base' });
    expect((await http('GET', `/api/sessions/${sessionId}/blame?path=nope.txt`)).status).toBe(404);
    expect((await http('GET', `/api/sessions/${sessionId}/blame?path=src`)).status).toBe(400);
    expect((await http('GET', `/api/sessions/${sessionId}/blame`)).body).toMatchObject({ message: expect.stringContaining('path is required') });
    expect((await http('GET', `/api/sessions/${sessionId}/blame?path=../etc/passwd`)).status).toBe(400);
    const overGraphql = await graphql(
      `
        query ($s: ID!, $p: String!) {
          sessionChanges(sessionId: $s) {
            blame(path: $p) {
              path
              lines {
                line
                origin
                step {
                  runId
                  agentName
                  toolName
                  modelCallId
                }
              }
            }
          }
        }
      `,
      { s: sessionId, p: someFile },
    );
    expect(overGraphql.body.data.sessionChanges.blame.lines).toEqual([
      { line: 1, origin: 'committed', step: { runId: someRun, agentName: 'writer', toolName: 'create', modelCallId: expect.any(String) } },
    ]);

    // The source repository is as it was: its branch, its index, its files.
    expect(git(repository, 'rev-parse', 'HEAD')).toBe(sourceHead);
    expect(git(repository, 'status', '--porcelain')).toBe('');
    expect(fs.existsSync(path.join(repository, 'alpha.txt'))).toBe(false);

    // /health says where the worktrees are and what they take on disk: the lead's and the two runs'.
    const health = (await http('GET', '/health')).body.workspaces;
    expect(health).toMatchObject({ enabled: true, dir: path.join(repos.dir, 'worktrees'), repositories: [repos.dir] });
    expect(health.worktrees).toBeGreaterThanOrEqual(3);
    expect(health.bytes).toBeGreaterThan(0);
    expect(health.largest[0]).toEqual({ sessionId: expect.any(String), bytes: expect.any(Number) });
    // /metrics has the same measure, each worktree by its session.
    const metrics = await (await fetch(`${running.app.baseUrl}/metrics`)).text();
    expect(metrics).toMatch(new RegExp(`switchboard_workspace_bytes\\{session_id="${sessionId}"\\} [1-9]\\d*`));
    expect(metrics).toMatch(/switchboard_workspace_worktrees [3-9]/);
  }, 150_000);

  it('names the person who approved the tool call that wrote a line', async () => {
    const created = await http('POST', '/api/sessions', { agentId: 'writer', permissionPolicy: { askKinds: ['write'] }, workspace: { repository } });
    expect(created.status).toBe(201);
    const sessionId = created.body.sessionId as string;
    expect((await http('POST', `/api/sessions/${sessionId}/messages`, { prompt: 'WRITE gamma.txt GAMMA' })).status).toBe(202);
    const asked = await waitUntil(
      async () => ((await http('GET', `/api/approvals?status=pending&sessionId=${sessionId}`)).body.approvals as Json[])[0],
      'the write waits for a person',
      60_000,
    );
    expect((await http('POST', `/api/approvals/${asked.id}`, { decision: 'approve' })).status).toBe(200);
    const line = await waitUntil(
      async () => {
        const blame = await http('GET', `/api/sessions/${sessionId}/blame?path=gamma.txt`);
        return blame.status === 200 && blame.body.lines[0]?.step ? blame.body.lines[0] : undefined;
      },
      'gamma.txt checkpointed',
      60_000,
    );
    expect(line).toMatchObject({
      text: 'GAMMA',
      step: {
        agentName: 'writer',
        toolName: 'create',
        approval: { approvalId: asked.id, decision: 'approve', decidedBy: 'api', decider: { kind: expect.any(String) } },
      },
    });
    // The checkpoints say the same.
    const checkpoints = (await http('GET', `/api/sessions/${sessionId}/checkpoints`)).body.checkpoints as Json[];
    expect(checkpoints.find((c) => c.toolName === 'create')).toMatchObject({ approval: { approvalId: asked.id } });
  }, 120_000);

  it('leaves a conflict in the lead’s worktree when two runs edit the same line, and says so', async () => {
    const { sessionId, runs, worktree } = await leadWithTwoRuns('EDIT', 'src/shared.txt line2 FROM_X', 'src/shared.txt line2 FROM_Y');
    expect(runs.map((r) => r.status)).toEqual(['completed', 'completed']);
    const outputs = await Promise.all(runs.map(async (r) => (await http('GET', `/api/runs/${r.runId}/output`)).body.workspace));
    // Whichever finished first merged; the other found the line changed and conflicts.
    expect(outputs.map((o) => o.merge).sort()).toEqual(['conflicted', 'merged']);
    expect(outputs.find((o) => o.merge === 'conflicted')).toMatchObject({ conflicts: ['src/shared.txt'] });
    const shared = fs.readFileSync(path.join(worktree, 'src', 'shared.txt'), 'utf8');
    expect(shared).toContain('<<<<<<<');
    expect(shared).toMatch(/FROM_X[\s\S]*FROM_Y|FROM_Y[\s\S]*FROM_X/);
    // The lead's history names the run that conflicted and the path.
    const leadMerges = (await http('GET', `/api/sessions/${sessionId}/checkpoints`)).body.merges as Json[];
    expect(leadMerges.map((m) => m.outcome).sort()).toEqual(['conflicted', 'merged']);
    expect(leadMerges.find((m) => m.outcome === 'conflicted')).toMatchObject({ intoSessionId: sessionId, conflicts: ['src/shared.txt'] });
  }, 150_000);

  it('gives a run started through POST /api/runs, and a session created over GraphQL, a worktree of the repository named', async () => {
    const started = await http('POST', '/api/runs', { agentId: 'writer', prompt: 'NOTHING here', workspace: { repository, ref: 'main' } });
    expect(started.status).toBe(201);
    const runId = started.body.runId as string;
    const changes = await waitUntil(
      async () => {
        const answer = await http('GET', `/api/runs/${runId}/changes`);
        return answer.status === 200 ? answer.body : undefined;
      },
      "the run's worktree",
      60_000,
    );
    expect(changes).toMatchObject({ runId, repository, branch: `switchboard/sub-agent-${runId}`, baseCommit: sourceHead, scope: 'own', files: [] });
    // The worktree is opened before the run's session is created with it as its working directory.
    const runWorktree = await waitUntil(
      async () => (await http('GET', `/api/sessions/sub-agent-${runId}`)).body.workingDirectory as string | undefined,
      "the run's session",
      60_000,
    );
    expect(git(runWorktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(`switchboard/sub-agent-${runId}`);

    const graphql = graphqlHttp(() => running.app.baseUrl);
    const created = await graphql('mutation($r: String!) { createSession(input: { workspace: { repository: $r } }) { sessionId } }', { r: repository });
    expect(created.body.errors).toBeUndefined();
    const sessionId = created.body.data.createSession.sessionId as string;
    expect((await http('GET', `/api/sessions/${sessionId}/changes`)).body).toMatchObject({ sessionId, baseCommit: sourceHead, files: [] });
    // A bad one is the same refusal as over REST.
    const refused = await graphql('mutation { createSession(input: { workspace: { repository: "/etc" } }) { sessionId } }');
    expect(refused.body.errors?.[0].extensions).toMatchObject({ code: 'workspace_refused' });

    // An agent's session default: a session started as it gets a worktree without asking; its request still wins.
    const agent = { id: 'ws-default', name: 'WS default', system_message: { mode: 'append', content: 'x' }, workspace: { repository, merge: 'manual' } };
    expect((await http('POST', '/api/agents', agent)).body).toMatchObject({ workspace: { repository, merge: 'manual' } });
    const asAgent = await http('POST', '/api/sessions', { agentId: 'ws-default' });
    expect(asAgent.status).toBe(201);
    const defaultWorktree = (await http('GET', `/api/sessions/${asAgent.body.sessionId}`)).body.workingDirectory as string;
    expect(git(defaultWorktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe(`switchboard/${asAgent.body.sessionId}`);
    const overGraphql = await graphql('{ agent(id: "ws-default") { workspace { repository ref merge } } }');
    expect(overGraphql.body.data.agent.workspace).toEqual({ repository, ref: null, merge: 'manual' });
    // A default that no longer fits the operator's list is refused when a session starts, naming it.
    const stale = { ...agent, id: 'ws-stale', name: 'WS stale', workspace: { repository: '/etc' } };
    expect((await http('POST', '/api/agents', stale)).status).toBe(201);
    expect((await http('POST', '/api/sessions', { agentId: 'ws-stale' })).body).toMatchObject({ statusCode: 422, code: 'workspace_refused' });

    // A schedule's firing works in the repository the schedule names.
    const schedule = await http('POST', '/api/schedules', {
      agentId: 'writer',
      prompt: 'NOTHING here',
      cron: '0 0 1 1 *',
      enabled: false,
      workspace: { repository, ref: 'main' },
    });
    expect(schedule.status).toBe(201);
    expect(schedule.body.workspace).toEqual({ repository, ref: 'main' });
    const fired = await http('POST', `/api/schedules/${schedule.body.id}/run`);
    expect(fired.status).toBe(202);
    const firedRun = fired.body.runId as string;
    const firedChanges = await waitUntil(
      async () => {
        const answer = await http('GET', `/api/runs/${firedRun}/changes`);
        return answer.status === 200 ? answer.body : undefined;
      },
      "the scheduled run's worktree",
      60_000,
    );
    expect(firedChanges).toMatchObject({ runId: firedRun, repository, baseCommit: sourceHead });
    const overGraphqlSchedule = await graphql(`{ schedule(id: "${schedule.body.id}") { workspace { repository ref merge } } }`);
    expect(overGraphqlSchedule.body.data.schedule.workspace).toEqual({ repository, ref: 'main', merge: null });
    // Cleared with null, as the other optional fields are.
    const cleared = await http('PATCH', `/api/schedules/${schedule.body.id}`, { workspace: null });
    expect(cleared.body.workspace).toBeNull();
  }, 120_000);

  it('starts a fork with the files of its fork point, and a replay with the original’s base', async () => {
    // A writer run that wrote forked.txt (its lead's policy lets it write).
    const { runs } = await leadWithTwoRuns('WRITE', 'forked.txt FORKED', 'other.txt OTHER');
    const originalId = await runThatWrote(runs, 'forked.txt');
    const calls = ((await http('GET', `/api/runs/${originalId}/model-calls?limit=100`)).body.calls as Json[]).filter((c) => c.status === 'succeeded');
    expect(calls.length).toBe(2);
    const written = ((await http('GET', `/api/runs/${originalId}/checkpoints`)).body.checkpoints as Json[]).find((c) => c.toolName === 'create');
    expect(written).toMatchObject({ files: [{ path: 'forked.txt' }] });

    // Forked from the call after the file was written: the fork's worktree starts from that checkpoint.
    const fork = await http('POST', `/api/runs/${originalId}/fork`, { fromModelCall: calls[1].callId, background: false });
    expect(fork.status).toBe(201);
    const forkId = fork.body.runId as string;
    expect((await http('GET', `/api/runs/${forkId}/changes`)).body).toMatchObject({ repository, baseCommit: written.commit });
    const forkWorktree = (await http('GET', `/api/sessions/sub-agent-${forkId}`)).body.workingDirectory as string;
    expect(fs.readFileSync(path.join(forkWorktree, 'forked.txt'), 'utf8')).toBe('FORKED\n');

    // How the fork's files differ from the original's: the same so far; then a person changes one and adds one.
    const against = async () => (await http('GET', `/api/runs/${forkId}/changes?against=${originalId}`)).body;
    expect(await against()).toMatchObject({ scope: 'against', againstRunId: originalId, files: [] });
    fs.writeFileSync(path.join(forkWorktree, 'forked.txt'), 'CHANGED BY HAND\n');
    fs.writeFileSync(path.join(forkWorktree, 'note.txt'), 'a note\n');
    expect((await against()).files).toEqual([
      { path: 'forked.txt', status: 'modified', additions: 1, deletions: 1 },
      { path: 'note.txt', status: 'added', additions: 1, deletions: 0 },
    ]);
    const diff = await fetch(`${running.app.baseUrl}/api/runs/${forkId}/diff?against=${originalId}&path=forked.txt`);
    expect(await diff.text()).toMatch(/-FORKED\n\+CHANGED BY HAND\n/);
    expect((await http('GET', `/api/runs/${forkId}/changes?against=no-such-run`)).status).toBe(404);
    const overGraphql = await graphqlHttp(() => running.app.baseUrl)(
      'query($r: ID!, $o: ID!) { runChanges(runId: $r, against: $o) { scope files { path status } diff(path: "note.txt") } }',
      { r: forkId, o: originalId },
    );
    expect(overGraphql.body.data.runChanges).toMatchObject({ scope: 'against', files: [{ path: 'forked.txt' }, { path: 'note.txt', status: 'added' }] });
    expect(overGraphql.body.data.runChanges.diff).toContain('+a note');

    // Forked from the first call: from before the file existed.
    const early = await http('POST', `/api/runs/${originalId}/fork`, { fromModelCall: calls[0].callId, background: false });
    expect((await http('GET', `/api/runs/${early.body.runId}/changes`)).body).toMatchObject({ baseCommit: sourceHead });

    // A replay starts where the original started.
    const replay = await http('POST', `/api/runs/${originalId}/replay`, { background: false });
    expect(replay.status).toBe(201);
    expect((await http('GET', `/api/runs/${replay.body.runId}/changes`)).body).toMatchObject({ repository, baseCommit: sourceHead });
  }, 120_000);

  it('refuses a repository outside SWITCHBOARD_REPOSITORIES, a folder that is not one, and an unknown ref, with 422 and nothing made', async () => {
    const outside = makeTempDir('switchboard-outside-');
    try {
      const worktrees = () => (fs.existsSync(path.join(repos.dir, 'worktrees')) ? fs.readdirSync(path.join(repos.dir, 'worktrees')).length : 0);
      const before = worktrees();
      const refused = [
        await http('POST', '/api/sessions', { workspace: { repository: outside.dir } }),
        await http('POST', '/api/sessions', { workspace: { repository: path.join(repository, '..', '..', path.basename(outside.dir)) } }),
        await http('POST', '/api/sessions', { workspace: { repository: path.join(repository, 'src') } }),
        await http('POST', '/api/sessions', { workspace: { repository, ref: 'no-such-branch' } }),
      ];
      expect(refused.map((r) => r.status)).toEqual([422, 422, 422, 422]);
      expect(refused[0].body.message).toContain('SWITCHBOARD_REPOSITORIES');
      expect(refused[3].body.message).toContain('no-such-branch');
      expect(worktrees()).toBe(before);
      // A session without a workspace has no changes to show.
      const plain = await http('POST', '/api/sessions', {});
      expect(plain.status).toBe(201);
      expect((await http('GET', `/api/sessions/${plain.body.sessionId}/changes`)).status).toBe(404);
      // A diff's refusal is the JSON error every route answers, not text/x-diff.
      const noDiff = await fetch(`${running.app.baseUrl}/api/sessions/${plain.body.sessionId}/diff`);
      expect(noDiff.status).toBe(404);
      expect(noDiff.headers.get('content-type')).toContain('application/json');
      expect(((await noDiff.json()) as Json).code).toBe('not_found');
    } finally {
      outside.cleanup();
    }
  }, 60_000);
});
