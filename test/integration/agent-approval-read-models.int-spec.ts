import { AgentLibrary } from '../../src/agents/agent-library';
import { type AgentFields, agentFieldsSchema } from '../../src/agents/agent-definition';
import { McpServerRegistry } from '../../src/agents/mcp-server-registry';
import { TeamAssembler } from '../../src/agents/team-assembler';
import { sessionGrant } from '../../src/approvals/approval-broker';
import type { ApprovalRow } from '../../src/approvals/approval-view';
import { ListApprovalsHandler, encodeApprovalCursor } from '../../src/approvals/queries/list-approvals/list-approvals.handler';
import { type ApprovalFilter, ListApprovals } from '../../src/approvals/queries/list-approvals/list-approvals.query';
import { type ReadModelTarget, readModelTargets } from '../fixtures/read-model-targets';
import { testConfig } from '../fixtures/test-config';

jest.setTimeout(120_000);

const CREATED = '2026-01-01T00:00:00.000Z';

/** A composable agent unless overridden. */
function fields(id: string, overrides: Partial<AgentFields> = {}): AgentFields {
  return agentFieldsSchema.parse({
    name: `Agent ${id}`,
    description: `${id} does one thing well`,
    system_message: { mode: 'replace', content: `You are ${id}.` },
    tools: { custom: [], builtin: ['grep'], excluded_builtin: [] },
    ...overrides,
  });
}

/**
 * The library as the `agents` projection leaves it. The ids differ only where the collations do:
 * byte order (SQLite) puts "a-c" before "a1" before "ab"; a locale that skips punctuation puts "ab"
 * before "a-c". Both "ab" and "a-c" include reviewer, so its reverse map shows the order too.
 */
const LIBRARY: Array<{ id: string; fields: AgentFields; version: number }> = [
  { id: 'reviewer', fields: fields('reviewer'), version: 3 },
  { id: 'ab', fields: fields('ab', { sub_agents: ['reviewer', 'tester'] }), version: 1 },
  { id: 'a-c', fields: fields('a-c', { sub_agents: ['reviewer', 'ghost'] }), version: 2 },
  { id: 'a1', fields: fields('a1', { sub_agents: ['reviewer-2'], allowed_agents: ['reviewer'], description: 'names reviewer in its text' }), version: 1 },
  { id: 'tester', fields: fields('tester', { tools: { custom: ['deploy'], builtin: [], excluded_builtin: [] } }), version: 1 },
  { id: 'reviewer-2', fields: fields('reviewer-2'), version: 1 },
];

const BYTE_ORDER = ['a-c', 'a1', 'ab', 'reviewer', 'reviewer-2', 'tester'];

/** Approvals as the `approvals` projection leaves them; positions past 2^31 (bigint on PostgreSQL). */
function approval(askedPosition: number, overrides: Partial<ApprovalRow> = {}): ApprovalRow {
  return {
    approvalId: `ap-${askedPosition}`,
    askedPosition,
    status: 'pending',
    kind: 'shell',
    toolName: null,
    arguments: JSON.stringify({ command: `echo ${askedPosition}` }),
    sessionId: 's1',
    childSessionId: null,
    agentName: null,
    runId: null,
    rootRunId: null,
    lineagePath: JSON.stringify(['main']),
    requestedAt: CREATED,
    decidedAt: null,
    decision: null,
    scope: null,
    decidedBy: null,
    decider: null,
    reason: null,
    ...overrides,
  };
}

const BIG = 2 ** 40;
const decidedForSession = { status: 'decided', decision: 'approve', scope: 'session', decidedBy: 'ops', decidedAt: CREATED } as const;
const APPROVALS: ApprovalRow[] = [
  approval(3),
  approval(5, { sessionId: 's2', agentName: 'reviewer', runId: 'r1', rootRunId: 'root-1' }),
  approval(8, { ...decidedForSession, kind: 'custom-tool', toolName: 'deploy' }),
  approval(13, { status: 'expired', reason: 'session ended', sessionId: 's2' }),
  approval(BIG, { ...decidedForSession, kind: 'write' }),
  approval(BIG + 1, { agentName: 'reviewer', runId: 'r2', rootRunId: 'root-1' }),
  approval(BIG + 2, { status: 'decided', decision: 'deny', scope: 'session', kind: 'url', decidedBy: 'ops' }),
];

/**
 * The agent library and the approvals, read through ReadModelDatabase, answer the same on both
 * databases: rows go straight into the tables (what the projections write), so what is under test is
 * the read side alone: find, list, the reverse map's JSON membership test, eligibility over a batched
 * lookup, the team assembler, the approvals' filters and keyset cursor, and session-scope grants.
 */
describe.each(readModelTargets())('agents and approvals read models on %s', (_name, open) => {
  let target: ReadModelTarget;
  let library: AgentLibrary;

  beforeAll(async () => {
    target = await open();
    const { orm, tables } = target.db;
    await orm.insert(tables.agents).values(
      LIBRARY.map((a) => ({
        id: a.id,
        name: a.fields.name,
        fields: JSON.stringify(a.fields),
        version: a.version,
        createdAt: CREATED,
        updatedAt: CREATED,
      })),
    );
    await orm.insert(tables.approvals).values(APPROVALS);
    library = new AgentLibrary(target.db);
  });

  afterAll(() => target?.close());

  describe('agent library', () => {
    it('finds an agent with its fields, version and timestamps; an unknown id is undefined', async () => {
      const reviewer = LIBRARY[0];
      expect(await library.find('reviewer')).toEqual({ id: 'reviewer', ...reviewer.fields, created_at: CREATED, updated_at: CREATED, version: 3 });
      expect(await library.find('nobody')).toBeUndefined();
    });

    it('lists the library by id in byte order, whatever the database collation', async () => {
      expect((await library.all()).map((a) => a.id)).toEqual(BYTE_ORDER);
      expect((await library.views()).map((a) => a.id)).toEqual(BYTE_ORDER);
    });

    it('finds many ids in one read: each once, unknown ones left out', async () => {
      const found = await library.findMany(['tester', 'ghost', 'tester', 'a1']);
      expect([...found.keys()].sort()).toEqual(['a1', 'tester']);
      expect(await library.findMany([])).toEqual(new Map());
      const lookup = await library.lookup(['ab']);
      expect(lookup('ab')?.sub_agents).toEqual(['reviewer', 'tester']);
      expect(lookup('tester')).toBeUndefined(); // not asked for: the lookup holds what was read
    });

    it('included_in: the agents whose sub_agents list it (JSON membership, not text), in library order', async () => {
      const reviewer = await library.view((await library.find('reviewer'))!);
      // a1 lists reviewer-2 and names reviewer in allowed_agents and its description: not a team of reviewer.
      expect(reviewer.included_in).toEqual(['a-c', 'ab']);
      expect(await library.teamsIncluding('reviewer-2')).toEqual(['a1']);
      expect(await library.teamsIncluding('ghost')).toEqual(['a-c']);
      expect(await library.teamsIncluding('nobody')).toEqual([]);
    });

    it("one agent's view and the whole library's views agree (the SQL reverse map and the in-memory one)", async () => {
      const views = await library.views();
      const one = await Promise.all(views.map(async (v) => library.view((await library.find(v.id))!)));
      expect(one).toEqual(views);
    });

    it('shows sub-agent problems and composability from the agents as they are', async () => {
      const ac = await library.view((await library.find('a-c'))!);
      expect(ac.composable).toBe(false);
      expect(ac.sub_agent_problems).toEqual([{ id: 'ghost', reason: 'no agent with id ghost exists; create it first or remove it from the list' }]);
      const ab = await library.view((await library.find('ab'))!);
      expect(ab.sub_agent_problems).toEqual([
        { id: 'tester', reason: 'tester has custom tools (deploy); sub-agents cannot carry custom tools, remove them from tools.custom' },
      ]);
      expect((await library.view((await library.find('reviewer'))!)).composable).toBe(true);
    });

    it("checks a draft against the saved agents: a cycle back to the draft and an agent's own sub-agents", async () => {
      const draft = await library.checkDraft('reviewer', fields('reviewer', { sub_agents: ['ab', 'reviewer-2'] }));
      expect(draft).toEqual({
        composable: false,
        composable_reasons: [expect.stringContaining('has sub-agents of its own (ab, reviewer-2)')],
        sub_agent_problems: [
          { id: 'ab', reason: 'ab lists reviewer as its own sub-agent, so reviewer -> ab -> reviewer would be a cycle; remove one of the two links' },
        ],
      });
    });

    it('assembles a team from the library, and names every agent it cannot use', async () => {
      const team = new TeamAssembler(library, new McpServerRegistry(testConfig('/nonexistent')));
      const ok = await team.assemble('ab', ['reviewer', 'reviewer-2']);
      expect(ok).toMatchObject({ ok: true, mainAgent: { id: 'ab' } });
      expect(ok.ok && ok.customAgents.map((a) => a.name)).toEqual(['reviewer', 'reviewer-2']);
      const refused = await team.assemble('nobody', ['ghost', 'tester']);
      expect(refused.ok || refused.problems.map((p) => p.id)).toEqual(['nobody', 'ghost', 'tester']);
    });
  });

  describe('approvals', () => {
    const list = (filter: ApprovalFilter, first = 100, after?: string) =>
      new ListApprovalsHandler(target.db).execute(new ListApprovals(filter, first, after));
    const positions = async (filter: ApprovalFilter) => (await list(filter)).approvals.map((a) => a.askedPosition);

    it('lists newest first with every column as stored (positions past 2^31 are numbers)', async () => {
      const page = await list({});
      expect(page.approvals).toEqual([...APPROVALS].reverse());
      expect(page).toMatchObject({ hasNextPage: false, endCursor: encodeApprovalCursor(3) });
    });

    it('filters by status, session, root run, agent and id, alone and together', async () => {
      expect(await positions({ status: 'pending' })).toEqual([BIG + 1, 5, 3]);
      expect(await positions({ status: 'decided' })).toEqual([BIG + 2, BIG, 8]);
      expect(await positions({ status: 'expired' })).toEqual([13]);
      expect(await positions({ sessionId: 's2' })).toEqual([13, 5]);
      expect(await positions({ rootRunId: 'root-1' })).toEqual([BIG + 1, 5]);
      expect(await positions({ agentName: 'reviewer', sessionId: 's1' })).toEqual([BIG + 1]);
      expect(await positions({ approvalId: `ap-${BIG}` })).toEqual([BIG]);
      expect(await positions({ sessionId: 'nobody' })).toEqual([]);
    });

    it('pages on the cursor to the end, each approval once, across the 2^31 boundary', async () => {
      const seen: number[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await list({}, 2, after);
        seen.push(...page.approvals.map((a) => a.askedPosition));
        if (!page.hasNextPage) break;
        after = page.endCursor!;
      }
      expect(seen).toEqual(APPROVALS.map((a) => a.askedPosition).reverse());
      const filtered = await list({ status: 'pending' }, 1, encodeApprovalCursor(BIG + 1));
      expect(filtered.approvals.map((a) => a.askedPosition)).toEqual([5]);
      expect(filtered.hasNextPage).toBe(true);
      expect(await list({}, 5, encodeApprovalCursor(3))).toEqual({ approvals: [], hasNextPage: false, endCursor: null });
    });

    it('finds a session-scope grant by kind, and a custom tool by its name; a denial or another session grants nothing', async () => {
      const grant = (sessionId: string, q: { kind: string; toolName?: string }) => sessionGrant(target.db, sessionId, q);
      expect(await grant('s1', { kind: 'write' })).toBe(`approved for the rest of the session by ops (approval ap-${BIG})`);
      expect(await grant('s1', { kind: 'custom-tool', toolName: 'deploy' })).toBe('approved for the rest of the session by ops (approval ap-8)');
      expect(await grant('s1', { kind: 'custom-tool', toolName: 'other' })).toBeUndefined();
      expect(await grant('s1', { kind: 'custom-tool' })).toBeUndefined();
      expect(await grant('s1', { kind: 'url' })).toBeUndefined(); // denied for the session, not approved
      expect(await grant('s2', { kind: 'write' })).toBeUndefined();
      expect(await grant('s1', { kind: 'shell' })).toBeUndefined(); // pending ones grant nothing
    });

    it('names the first of several grants for the same kind', async () => {
      const { orm, tables } = target.db;
      await orm
        .insert(tables.approvals)
        .values([approval(BIG + 10, { ...decidedForSession, sessionId: 's3' }), approval(21, { ...decidedForSession, sessionId: 's3' })]);
      expect(await sessionGrant(target.db, 's3', { kind: 'shell' })).toBe('approved for the rest of the session by ops (approval ap-21)');
    });
  });
});
