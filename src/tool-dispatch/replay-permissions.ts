import type { LiveSession } from '../sessions';
import { decidePermission, type HostAccess, type PermissionDecision, type PermissionQuestion } from './permission-policy';

/** Kinds a replay repeats without asking: reading, and the session's own tools (whose calls are answered from the record). */
const WITHOUT_SIDE_EFFECTS = new Set(['read', 'custom-tool']);

export const SIDE_EFFECTS_DENIED = 'a replay does not repeat side effects (allow_side_effects: true lets it)';

/**
 * issue 26: a permission request in a replay or fork session. Nobody is asked (a replay runs unattended):
 * a read and the session's own tools are decided by the session's permission policy as the original's
 * were (never wider); shell, write, url, mcp, memory and any other kind are denied unless the replay
 * was started with allowSideEffects, and then the policy decides them, still without asking.
 */
export function replayPermission(question: PermissionQuestion, session: LiveSession, host: HostAccess): PermissionDecision {
  const replay = session.config.replay;
  if (!WITHOUT_SIDE_EFFECTS.has(question.kind) && !replay?.allowSideEffects) {
    return { approved: false, reason: SIDE_EFFECTS_DENIED, decidedBy: 'switchboard' };
  }
  return decidePermission(question, session, host);
}
