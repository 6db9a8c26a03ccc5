import { eq } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpanIds } from '../../src/common/trace-context';
import type { ReadModelDatabase } from '../../src/database/read-model-database';
import type { StoredEvent } from '../../src/event-store/event-store.types';
import { runProjectionAsync, runProjectionSync } from '../../src/projections/projection';
import { TraceSpansProjection } from '../../src/traces/projections/trace-spans.projection';
import { type ReadModelTarget, readModelTargets } from '../fixtures/read-model-targets';
import { InMemoryTraceSpans } from '../fixtures/trace-spans-in-memory';

jest.setTimeout(120_000);

/**
 * A real log (the real Copilot CLI with the scripted model: a `task` sub-agent whose shell calls wait
 * for a person, a lead that delegates with `agent_run` to a run whose shell call waits too, and a
 * `task` sub-agent calling a webhook tool), as /api/events gave it; CLI deltas and request bodies cut.
 * The first answer is given a cost, as it would have with SWITCHBOARD_MODEL_PRICES.
 */
function realLog(): StoredEvent[] {
  const text = readFileSync(join(__dirname, '../fixtures/traces/real-delegation-log.jsonl'), 'utf8');
  const events = text
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as StoredEvent);
  const firstAnswer = events.find((e) => e.type === 'model_call.finished');
  if (firstAnswer) firstAnswer.data = { ...firstAnswer.data, cost: { amount: 0.0021, currency: 'USD' } };
  return events;
}

const LOG = realLog();
const sessionOf = (type: string, match: (data: Record<string, unknown>) => boolean) => {
  const event = LOG.find((e) => e.type === type && match(e.data));
  if (!event) throw new Error(`the fixture has no ${type}`);
  return event;
};
/** The three sessions of the log. */
const TASK_SESSION = String(sessionOf('session.message_sent', (d) => d.prompt === 'Ask the operator to run the commands.').streamId).slice(
  'session-'.length,
);
const RUN_SESSION = String(sessionOf('session.message_sent', (d) => String(d.prompt).startsWith('SCENARIO_RUN')).streamId).slice('session-'.length);
const WEBHOOK_SESSION = String(sessionOf('session.message_sent', (d) => String(d.prompt).includes('secret keeper')).streamId).slice('session-'.length);
const RUN_ID = String(sessionOf('run.started', () => true).data.runId);

interface Row {
  spanId: string;
  traceId: string;
  parentSpanId: string | null;
  name: string;
  kind: string;
  startTime: string;
  endTime: string | null;
  statusCode: string;
  statusMessage: string | null;
  attributes: Record<string, unknown>;
  events: unknown[];
  openedPosition: number;
  endedPosition: number | null;
  exportedAt: string | null;
}

describe.each(readModelTargets())('the trace-spans projection on %s', (_name, openTarget) => {
  let target: ReadModelTarget;
  let db: ReadModelDatabase;
  const projection = new TraceSpansProjection();

  async function fold(events: readonly StoredEvent[], batch: number): Promise<void> {
    for (let i = 0; i < events.length; i += batch) {
      const work = projection.handle(events.slice(i, i + batch), db);
      if (db.dialect === 'sqlite') runProjectionSync(work);
      else await runProjectionAsync(work);
    }
  }

  async function rows(): Promise<Row[]> {
    const stored = await db.orm.select().from(db.tables.traceSpans);
    return stored
      .map(({ claimedBy: _by, claimedUntil: _until, ...row }) => ({
        ...row,
        attributes: JSON.parse(row.attributes) as Record<string, unknown>,
        events: JSON.parse(row.events) as unknown[],
      }))
      .sort((a, b) => a.openedPosition - b.openedPosition || a.spanId.localeCompare(b.spanId));
  }

  async function emptyTables(): Promise<void> {
    await db.orm.delete(db.tables.traceSpans);
    await db.orm.delete(db.tables.traceSessionContexts);
  }

  beforeAll(async () => {
    target = await openTarget();
    db = target.db;
  });
  afterAll(() => target?.close());
  beforeEach(emptyTables);

  it('folds a real delegation log into one trace per turn, each span under its parent, with real agents, tools, usage, cost and deciders', async () => {
    await fold(LOG, 1000);
    const spans = await rows();
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const named = (name: string, conversation?: string) =>
      spans.filter((s) => s.name === name && (!conversation || s.attributes['gen_ai.conversation.id'] === conversation));

    // Every span is ended, and every parent is a span of the same trace (a turn is the root of its trace).
    expect(spans.filter((s) => s.endTime === null)).toEqual([]);
    for (const span of spans) {
      if (span.parentSpanId === null) expect(span.name).toBe('invoke_agent main');
      else expect(byId.get(span.parentSpanId)?.traceId).toBe(span.traceId);
    }
    const traceOfSession = (session: string) =>
      new Set(spans.filter((s) => String(s.attributes['gen_ai.conversation.id']).endsWith(session)).map((s) => s.traceId));
    expect(new Set(spans.map((s) => s.traceId)).size).toBe(3);
    for (const session of [TASK_SESSION, RUN_SESSION, WEBHOOK_SESSION]) expect(traceOfSession(session).size).toBe(1);
    // The run's thread is in its caller's trace.
    expect(traceOfSession(`sub-agent-${RUN_ID}`)).toEqual(traceOfSession(RUN_SESSION));

    // A CLI sub-agent under its `task` call, its model and tool calls under it, the approval under the tool call.
    const [turn] = named('invoke_agent main', TASK_SESSION);
    const [task] = named('execute_tool task', TASK_SESSION);
    const [operator] = named('invoke_agent operator');
    expect(task.parentSpanId).toBe(turn.spanId);
    expect(operator).toMatchObject({ parentSpanId: task.spanId, attributes: { 'gen_ai.agent.name': 'operator' } });
    const childId = String(sessionOf('subagent.started', (d) => d.agentName === 'operator').data.childSessionId);
    expect(operator.spanId).toBe(SpanIds.subagent(TASK_SESSION, childId));
    expect(operator.attributes['gen_ai.agent.id']).toBe(childId);
    const underOperator = spans.filter((s) => s.parentSpanId === operator.spanId).map((s) => s.name);
    expect(underOperator).toEqual(['chat gpt-4.1', 'execute_tool bash', 'chat gpt-4.1', 'execute_tool bash', 'chat gpt-4.1']);
    const approvals = named('await_approval bash', TASK_SESSION);
    expect(approvals.map((a) => byId.get(a.parentSpanId ?? '')?.attributes['gen_ai.tool.call.id'])).toEqual(['call_2_bash', 'call_3_bash']);
    expect(approvals.map((a) => [a.attributes['switchboard.approval.decision'], a.attributes['switchboard.approval.reason']])).toEqual([
      ['approve', 'harmless'],
      ['deny', 'NOT_ON_FRIDAYS'],
    ]);
    expect(approvals[1].attributes).toMatchObject({
      'switchboard.decider.kind': 'user',
      'switchboard.decider.id': 'local',
      'switchboard.decider.name': 'local admin',
    });
    // The denied command failed as the CLI reported it.
    expect(byId.get(approvals[1].parentSpanId ?? '')).toMatchObject({ statusCode: 'error', statusMessage: expect.stringContaining('NOT_ON_FRIDAYS') });

    // agent_run: a run span named by its agent, its work under it on its thread.
    const [run] = named('invoke_agent operator-agent');
    expect(run).toMatchObject({
      spanId: SpanIds.run(RUN_ID, 1),
      statusCode: 'ok',
      attributes: { 'gen_ai.agent.id': 'operator-agent', 'switchboard.run.id': RUN_ID, 'switchboard.run.depth': 1, 'switchboard.run.background': false },
    });
    expect(spans.filter((s) => s.parentSpanId === run.spanId).map((s) => s.name)).toEqual(['chat gpt-4.1', 'execute_tool bash', 'chat gpt-4.1']);
    expect(named('execute_tool agent_run')[0].attributes['switchboard.tool.routing']).toBe('success');

    // The webhook tool: the sub-agent's call, routed; the call the CLI refused is an error.
    const [keeper] = named('invoke_agent secret-keeper');
    const [lookup] = named('execute_tool lookup_secret');
    expect(lookup).toMatchObject({
      parentSpanId: keeper.spanId,
      statusCode: 'unset',
      attributes: { 'switchboard.tool.routing': 'success', 'switchboard.tool.routing.via': 'external_tool.requested' },
    });
    expect(named('execute_tool forbidden_tool')[0]).toMatchObject({ parentSpanId: keeper.spanId, statusCode: 'error' });

    // Chat spans: client spans with the usage, and the cost where one was priced.
    const chats = spans.filter((s) => s.name.startsWith('chat '));
    expect(chats).toHaveLength(LOG.filter((e) => e.type === 'model_call.started').length);
    for (const chat of chats) {
      expect(chat).toMatchObject({
        kind: 'client',
        attributes: {
          'gen_ai.provider.name': 'openai',
          'gen_ai.request.model': 'gpt-4.1',
          'gen_ai.usage.input_tokens': 10,
          'gen_ai.usage.output_tokens': 5,
        },
      });
      expect(String(chat.attributes['gen_ai.response.id'])).toMatch(/^chatcmpl-scripted-/);
    }
    expect(chats[0].attributes).toMatchObject({ 'switchboard.cost.amount': 0.0021, 'switchboard.cost.currency': 'USD', 'gen_ai.agent.name': 'main' });
    // Content is off by default: no prompt, argument or result in any span.
    expect(JSON.stringify(spans)).not.toMatch(/Ask the operator|FIRST_|secret\(alpha\)/);

    // What the tables hold is what the mapping folds in memory.
    const memory = new InMemoryTraceSpans({ content: false });
    for (const event of LOG) memory.apply(event);
    expect(spans).toEqual([...memory.spans.values()].sort((a, b) => a.openedPosition - b.openedPosition || a.spanId.localeCompare(b.spanId)));
  });

  it('a rebuild from position 0 gives the same rows, whatever the batches', async () => {
    await fold(LOG, 1000);
    const first = await rows();
    const contexts = await db.orm.select().from(db.tables.traceSessionContexts);
    await emptyTables();
    await fold(LOG, 7);
    expect(await rows()).toEqual(first);
    await emptyTables();
    await fold(LOG, 1);
    expect(await rows()).toEqual(first);
    const sortContexts = (list: typeof contexts) => [...list].sort((a, b) => a.sessionId.localeCompare(b.sessionId));
    expect(sortContexts(await db.orm.select().from(db.tables.traceSessionContexts))).toEqual(sortContexts(contexts));
  });

  it('leaves an exported span as it was when a late event for it comes', async () => {
    const complete = LOG.findIndex(
      (e) => e.type === 'cli.tool.execution_complete' && (e.data.payload as { toolCallId?: string }).toolCallId === 'call_2_lookup_secret',
    );
    await fold(LOG.slice(0, complete + 1), 1000);
    const spanId = SpanIds.tool(WEBHOOK_SESSION, 'call_2_lookup_secret');
    await db.orm.update(db.tables.traceSpans).set({ exportedAt: '2026-11-28T05:00:00.000Z' }).where(eq(db.tables.traceSpans.spanId, spanId));
    const exported = (await rows()).find((s) => s.spanId === spanId);
    const late: StoredEvent = {
      ...LOG[complete],
      globalPosition: 5000,
      eventId: 'late-1',
      type: 'tool_call.denied',
      data: { via: 'late', parentSessionId: WEBHOOK_SESSION, toolCallId: 'call_2_lookup_secret', outcome: 'denied', latencyMs: 1 },
    };
    await fold([late, { ...LOG[complete], globalPosition: 5001, eventId: 'late-2' }], 10);
    expect((await rows()).find((s) => s.spanId === spanId)).toEqual(exported);
    expect(exported).toMatchObject({ exportedAt: '2026-11-28T05:00:00.000Z', attributes: { 'switchboard.tool.routing': 'success' } });
  });
});
