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
 * The session's permissionPolicy. By default only the session's own tools are approved; shell, file
 * writes, URLs and every other kind are denied unless the policy lists the kind in `allowKinds`.
 * A sub-agent's allowlist is not checked here (spec: subagent-tool-dispatch, "It does not apply to
 * permission.request"): the tool call that follows is refused by the router with the spec's
 * `Tool '<name>' is not supported by this client instance.`, which is what the model must read.
 */
export function decidePermission(question: PermissionQuestion, session: LiveSession): PermissionDecision {
  const policy = session.config.permissionPolicy;
  if (question.kind === 'custom-tool') {
    const tool = question.toolName ?? '(unnamed)';
    if (!policy.approveOwnTools) return { approved: false, reason: 'the permission policy refuses custom tools (approveOwnTools: false)' };
    if (!session.hasTool(tool)) return { approved: false, reason: `tool ${tool} is not registered on the session` };
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
