import { asc } from 'drizzle-orm';
import { sessionStreamId } from '../../src/event-store/stream-ids';
import { auditRecords, RequestAuditLog, type Requesters } from '../../src/tool-dispatch/request-audit';
import type { ToolCallRequest } from '../../src/tool-dispatch/cli-request';
import { RoutedRequestsProjection } from '../../src/tool-dispatch/projections/routed-requests.projection';
import type { RoutedRequestEvent } from '../../src/tool-dispatch/routed-request.events';
import { type EventStoreTarget, eventStoreTargets } from '../fixtures/event-store-targets';
import { waitUntil } from '../fixtures/wait-until';

jest.setTimeout(60_000);

const call = (toolCallId: string): ToolCallRequest => ({ via: 'tool.call', toolName: 'lookup', toolCallId, arguments: { key: toolCallId } });
const routed = (who: Requesters, toolCallId: string): RoutedRequestEvent =>
  auditRecords.toolCallRouted(who, call(toolCallId), { textResultForLlm: 'ok', resultType: 'success' }, 1);

describe.each(eventStoreTargets())('RequestAuditLog on %s', (_name, open) => {
  let target: EventStoreTarget;
  let log: RequestAuditLog;

  beforeEach(async () => {
    target = await open({ projections: () => [new RoutedRequestsProjection()] });
    log = new RequestAuditLog(target.store);
  });

  afterEach(async () => {
    log.onModuleDestroy();
    await target.close();
  });

  const toolCallIds = async (sessionId: string) =>
    (await target.store.readStream(sessionStreamId(sessionId))).map((e) => (e.data as { toolCallId?: string }).toolCallId);
  const rows = () => target.db.orm.select().from(target.db.tables.routedRequests).orderBy(asc(target.db.tables.routedRequests.globalPosition));

  it("records every request of a burst once, in the order made, each session's as one append", async () => {
    const appendsBefore = target.store.stats().appends;
    const a = { parentSessionId: 'audit-a' };
    const b = { parentSessionId: 'audit-b', childSessionId: 'child-b', agentName: 'keeper' };
    ['a1', 'a2', 'a3'].forEach((id) => log.record(routed(a, id)));
    ['b1', 'b2'].forEach((id) => log.record(routed(b, id)));

    await waitUntil(async () => (await rows()).length === 5, 'five routed_requests rows');
    expect(await toolCallIds('audit-a')).toEqual(['a1', 'a2', 'a3']);
    expect(await toolCallIds('audit-b')).toEqual(['b1', 'b2']);
    expect((await rows()).map((r) => [r.parentSessionId, r.childSessionId, r.agentName, r.outcome])).toEqual([
      ['audit-a', null, null, 'success'],
      ['audit-a', null, null, 'success'],
      ['audit-a', null, null, 'success'],
      ['audit-b', 'child-b', 'keeper', 'success'],
      ['audit-b', 'child-b', 'keeper', 'success'],
    ]);
    expect(target.store.stats().appends - appendsBefore).toBe(2);
  });

  it('keeps the rest of a burst when the store refuses one of its records', async () => {
    const who = { parentSessionId: 'audit-refused' };
    // routed_requests.outcome is NOT NULL: the inline projection refuses this one, as a broken record would be.
    const refused = routed(who, 'x2');
    Reflect.deleteProperty(refused.data, 'outcome');
    log.record(routed(who, 'x1'));
    log.record(refused);
    log.record(routed(who, 'x3'));

    await waitUntil(async () => (await toolCallIds('audit-refused')).length === 2, 'the two good records');
    expect(await toolCallIds('audit-refused')).toEqual(['x1', 'x3']);
    expect((await rows()).map((r) => r.outcome)).toEqual(['success', 'success']);
  });

  it('hands what is waiting to the store at shutdown, and what comes after too', async () => {
    const who = { parentSessionId: 'audit-shutdown' };
    log.record(routed(who, 's1'));
    log.onModuleDestroy();
    log.record(routed(who, 's2'));
    await waitUntil(async () => (await toolCallIds('audit-shutdown')).length === 2, 'both records');
    expect(await toolCallIds('audit-shutdown')).toEqual(['s1', 's2']);
  });
});
