import type { Decider } from '../event-store';
import { ApprovalNotFoundError, ApprovalSettledError } from './approval.errors';
import {
  type ApprovalDecision,
  type ApprovalEvent,
  ApprovalEvents,
  type ApprovalScope,
  isApprovalEvent,
  type PermissionAskedData,
} from './approval.events';

export type ApprovalStatus = 'absent' | 'pending' | 'decided' | 'expired';

export interface ApprovalState {
  status: ApprovalStatus;
  asked?: PermissionAskedData;
}

export type ApprovalCommand =
  | { type: 'ask'; asked: PermissionAskedData }
  | { type: 'decide'; approvalId: string; decision: ApprovalDecision; scope: ApprovalScope; reason?: string; decidedBy: string }
  | { type: 'expire'; approvalId: string; reason: string };

/**
 * One permission request that waits for a person: asked once, then decided or expired once. A second
 * decision is refused naming the state (409), so two people approving at once cannot both win; an
 * expiry of a request no longer pending changes nothing (the session ending after a decision).
 */
export const approvalDecider: Decider<ApprovalState, ApprovalCommand, ApprovalEvent> = {
  isEvent: isApprovalEvent,
  initialState: () => ({ status: 'absent' }),

  evolve(state, event) {
    switch (event.type) {
      case ApprovalEvents.asked:
        return { status: 'pending', asked: event.data };
      case ApprovalEvents.decided:
        return { ...state, status: 'decided' };
      case ApprovalEvents.expired:
        return { ...state, status: 'expired' };
      default:
        return state;
    }
  },

  decide(command, state) {
    switch (command.type) {
      case 'ask':
        return state.status === 'absent' ? [{ type: ApprovalEvents.asked, data: command.asked }] : [];
      case 'decide': {
        if (state.status === 'absent' || !state.asked) throw new ApprovalNotFoundError(command.approvalId);
        if (state.status !== 'pending') throw new ApprovalSettledError(command.approvalId, state.status);
        const { sessionId, kind, toolName, agentName, lineagePath, runId } = state.asked;
        const agentId = agentName ?? lineagePath.at(-1);
        return [
          {
            type: ApprovalEvents.decided,
            data: {
              approvalId: command.approvalId,
              sessionId,
              kind,
              toolName,
              decision: command.decision,
              scope: command.scope,
              reason: command.reason,
              decidedBy: command.decidedBy,
              ...(agentId ? { agentId } : {}),
              ...(runId ? { runId } : {}),
            },
          },
        ];
      }
      case 'expire':
        if (state.status !== 'pending' || !state.asked) return [];
        return [{ type: ApprovalEvents.expired, data: { approvalId: command.approvalId, sessionId: state.asked.sessionId, reason: command.reason } }];
    }
  },
};
