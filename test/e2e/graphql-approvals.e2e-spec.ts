import { graphqlHttp, GraphqlSubscription, graphqlWs } from '../fixtures/graphql-client';
import { type Json, type SessionHarness, startSessionHarness } from '../fixtures/session-harness';
import { waitUntil } from '../fixtures/wait-until';

const FIELDS = 'id status kind toolName sessionId childSessionId agentName lineagePath decision scope decidedBy reason decidedAt';

/** issue 14 over GraphQL: the `approvals` query, the `decideApproval` mutation and the `approvalsChanged` subscription. */
describe('GraphQL approvals, decideApproval and approvalsChanged', () => {
  let h: SessionHarness;
  const gql = graphqlHttp(() => h.app.baseUrl);

  beforeAll(async () => {
    h = await startSessionHarness({ protocolVersion: 3 });
  }, 30_000);
  afterAll(() => h?.close());

  it('streams the request as it is asked and decided, lists it, and answers the CLI once', async () => {
    const ws = graphqlWs(h.app.baseUrl);
    const changes = new GraphqlSubscription<Json>(ws, `subscription { approvalsChanged { ${FIELDS} } }`).start();
    try {
      // The subscription is live once a request asked on a warm-up session arrives through it.
      const warm = await h.createTeamSession({ permissionPolicy: { askTools: ['secret'] } });
      await waitUntil(async () => {
        await h.fake.emitEvent(warm, {
          type: 'permission.requested',
          data: { requestId: `w${Date.now()}`, permissionRequest: { kind: 'custom-tool', toolName: 'secret' } },
        });
        return changes
          .waitFor((v) => v.length > 0, 'a warm-up change', 500)
          .then(
            () => true,
            () => false,
          );
      }, 'the subscription to be live');
      const sessionId = await h.createTeamSession({ permissionPolicy: { askTools: ['secret'] } });
      changes.values.length = 0;
      await h.fake.emitEvent(sessionId, {
        type: 'permission.requested',
        data: { requestId: 'g1', permissionRequest: { kind: 'custom-tool', toolName: 'secret' } },
      });

      const asked = await changes.waitFor((v) => v.some((c) => c.approvalsChanged.sessionId === sessionId), 'the asked approval');
      const item = asked.find((c) => c.approvalsChanged.sessionId === sessionId)!.approvalsChanged;
      expect(item).toMatchObject({ status: 'pending', kind: 'custom-tool', toolName: 'secret', sessionId, lineagePath: ['main'], decision: null });

      const listed = await gql(
        `query ($f: ApprovalFilterInput) { approvals(filter: $f, first: 10) { edges { cursor node { ${FIELDS} } } pageInfo { hasNextPage endCursor } } }`,
        {
          f: { status: 'pending', sessionId },
        },
      );
      expect(listed.body.data.approvals.edges.map((e: Json) => e.node.id)).toEqual([item.id]);
      expect(listed.body.data.approvals.pageInfo.hasNextPage).toBe(false);

      const mutation = `mutation ($id: ID!, $input: DecideApprovalInput!) { decideApproval(id: $id, input: $input) { ${FIELDS} } }`;
      const decided = await gql(mutation, { id: item.id, input: { decision: 'deny', reason: 'use lookup instead' } });
      expect(decided.body.data.decideApproval).toMatchObject({ id: item.id, status: 'decided', decision: 'deny', scope: 'once', decidedBy: 'api' });
      const answer = await h.fake.waitFor<Json>('session.permissions.handlePendingPermissionRequest', (p) => p.requestId === 'g1', 5000);
      expect(answer.result).toEqual({ kind: 'reject', feedback: 'denied by api: use lookup instead' });
      const both = await changes.waitFor(
        (v) => v.some((c) => c.approvalsChanged.id === item.id && c.approvalsChanged.status === 'decided'),
        'the decision',
      );
      expect(both.filter((c) => c.approvalsChanged.id === item.id).at(-1)!.approvalsChanged).toMatchObject({
        id: item.id,
        status: 'decided',
        decision: 'deny',
      });

      const again = await gql(mutation, { id: item.id, input: { decision: 'approve' } });
      expect(again.body.errors?.[0].extensions).toMatchObject({ code: 'approval_settled', statusCode: 409 });
      const unknown = await gql(mutation, { id: 'nope', input: { decision: 'approve' } });
      expect(unknown.body.errors?.[0].extensions).toMatchObject({ code: 'not_found', statusCode: 404 });
      const bad = await gql(mutation, { id: item.id, input: { decision: 'perhaps' } });
      expect(bad.body.errors?.[0].extensions).toMatchObject({ code: 'invalid_input' });
    } finally {
      changes.stop();
      await ws.dispose();
    }
  });
});
