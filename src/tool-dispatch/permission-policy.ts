import type { LiveSession } from '../sessions/live-session';

export interface PermissionQuestion {
  /** The CLI's kind: shell, write, read, url, mcp, custom-tool, memory... */
  kind: string;
  toolName?: string;
}

export interface PermissionDecision {
  approved: boolean;
  reason: string;
}

/**
 * The session's permissionPolicy. By default only the session's own tools are approved, and for a
 * sub-agent only those in its allowlist; shell, file writes, URLs and every other kind are denied
 * unless the policy lists the kind in `allowKinds`.
 */
export function decidePermission(
  question: PermissionQuestion,
  session: LiveSession,
  child: { agentName: string; toolAllowed: (toolName: string) => boolean } | undefined,
): PermissionDecision {
  const policy = session.config.permissionPolicy;
  if (question.kind === 'custom-tool') {
    const tool = question.toolName ?? '(unnamed)';
    if (!policy.approveOwnTools) return { approved: false, reason: 'the permission policy refuses custom tools (approveOwnTools: false)' };
    if (!session.hasTool(tool)) return { approved: false, reason: `tool ${tool} is not registered on the session` };
    if (child && !child.toolAllowed(tool)) {
      return { approved: false, reason: `tool ${tool} is outside the allowlist of agent ${child.agentName}` };
    }
    return { approved: true, reason: `tool ${tool} is one of the session's own tools` };
  }
  if ((policy.allowKinds as string[]).includes(question.kind)) {
    return { approved: true, reason: `the permission policy allows ${question.kind}` };
  }
  return {
    approved: false,
    reason: `${question.kind} access is not allowed by the session's permission policy (allowKinds: [${policy.allowKinds.join(', ')}])`,
  };
}
