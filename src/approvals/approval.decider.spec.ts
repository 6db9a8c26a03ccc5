import { deciderSpec } from '../../test/fixtures/decider-spec';
import { approvalDecider } from './approval.decider';
import { ApprovalNotFoundError, ApprovalSettledError } from './approval.errors';
import { type ApprovalDecidedData, type ApprovalEvent, ApprovalEvents, type PermissionAskedData } from './approval.events';

const given = deciderSpec(approvalDecider);

const asked: PermissionAskedData = {
  approvalId: 'a1',
  sessionId: 's1',
  childSessionId: 'c1',
  agentName: 'researcher',
  lineagePath: ['lead', 'researcher'],
  kind: 'shell',
  arguments: { kind: 'shell', fullCommandText: 'ls' },
  via: 'permission.requested',
};
const askedEvent: ApprovalEvent = { type: ApprovalEvents.asked, data: asked };
/** The shell request a1's approval as `decide` records it, with what a case changes. */
const decidedA1 = (data: Partial<ApprovalDecidedData>): ApprovalEvent => ({
  type: ApprovalEvents.decided,
  data: { approvalId: 'a1', sessionId: 's1', kind: 'shell', toolName: undefined, decision: 'approve', scope: 'once', decidedBy: 'api', ...data },
});
const decide = { type: 'decide' as const, approvalId: 'a1', decision: 'approve' as const, scope: 'once' as const, decidedBy: 'api' };

describe('approvalDecider', () => {
  it('records a request once', () => {
    given().when({ type: 'ask', asked }).then([askedEvent]);
    given(askedEvent).when({ type: 'ask', asked }).then([]);
  });

  it('decides a pending request, with its kind and tool for session grants, the agent that asked and who decided', () => {
    given(askedEvent)
      .when({ ...decide, scope: 'session', reason: 'fine', decidedBy: 'console' })
      .then([decidedA1({ scope: 'session', reason: 'fine', decidedBy: 'console', agentId: 'researcher' })]);
    // The session's own agent asked: the end of the lineage names it.
    const ownAgent: ApprovalEvent = { type: ApprovalEvents.asked, data: { ...asked, agentName: undefined, lineagePath: ['lead'], runId: 'r1' } };
    given(ownAgent)
      .when(decide)
      .then([decidedA1({ agentId: 'lead', runId: 'r1' })]);
  });

  it('refuses an unknown approval (404)', () => {
    given()
      .when(decide)
      .thenThrows(ApprovalNotFoundError, /Approval a1 does not exist/);
  });

  it('refuses a second decision, naming the state (409)', () => {
    const decided: ApprovalEvent = {
      type: ApprovalEvents.decided,
      data: { approvalId: 'a1', sessionId: 's1', kind: 'shell', decision: 'deny', scope: 'once', decidedBy: 'timeout' },
    };
    given(askedEvent, decided)
      .when(decide)
      .thenThrows(ApprovalSettledError, /already decided/);
    const expired: ApprovalEvent = { type: ApprovalEvents.expired, data: { approvalId: 'a1', sessionId: 's1', reason: 'restart' } };
    given(askedEvent, expired)
      .when(decide)
      .thenThrows(ApprovalSettledError, /already expired/);
  });

  it('expires a pending request, and nothing else', () => {
    given(askedEvent)
      .when({ type: 'expire', approvalId: 'a1', reason: 'session destroyed' })
      .then([{ type: ApprovalEvents.expired, data: { approvalId: 'a1', sessionId: 's1', reason: 'session destroyed' } }]);
    given().when({ type: 'expire', approvalId: 'a1', reason: 'x' }).then([]);
    const decided: ApprovalEvent = {
      type: ApprovalEvents.decided,
      data: { approvalId: 'a1', sessionId: 's1', kind: 'shell', decision: 'approve', scope: 'once', decidedBy: 'api' },
    };
    given(askedEvent, decided).when({ type: 'expire', approvalId: 'a1', reason: 'x' }).then([]);
  });
});
