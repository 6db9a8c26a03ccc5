import type { Actor } from '../common';
import type { LiveSession } from '../sessions';
import { readOutsideWorkingDirectory } from './read-scope';
import type { DecisionSource } from '../approvals';

export interface PermissionQuestion {
  /** The CLI's kind: shell, write, read, url, mcp, custom-tool, memory... */
  kind: string;
  toolName?: string;
  /** A `read`'s file or folder, as the CLI sent it. */
  path?: string;
}

/** What an approved `read` may reach: the session's working directory, unless the operator opened the host. */
export interface HostAccess {
  workingDirectory: string;
  /** SWITCHBOARD_ALLOW_HOST_PERMISSIONS: a `read` in allowKinds reaches any path. */
  hostPermissions: boolean;
}

export interface PermissionDecision {
  approved: boolean;
  reason: string;
  /** Who decided, for the audit; undefined: the session's permission policy. */
  decidedBy?: DecisionSource;
  /** issue 27: the actor who decided, where a person (or the timeout) did; the audit record names it. */
  decider?: Actor;
}

/** The policy's answer when a person may be asked: approve, deny, or wait for a decision. */
export type PermissionVerdict = PermissionDecision | { ask: true; reason: string };

export const mustAsk = (verdict: PermissionVerdict): verdict is { ask: true; reason: string } => 'ask' in verdict;

/**
 * Precedence (issue 14): a custom tool the session does not have is denied; then ask beats allow:
 * a kind in `askKinds` or a tool in `askTools` waits for a person, unless a decision with
 * `scope: "session"` already approved it (`grantedFor`); then `allowKinds` / own tools approve;
 * anything neither allowed nor asked is denied.
 */
export async function permissionVerdict(
  question: PermissionQuestion,
  session: LiveSession,
  grantedFor: (q: PermissionQuestion) => Promise<string | undefined>,
  host: HostAccess,
): Promise<PermissionVerdict> {
  if (question.kind === 'custom-tool' && !session.hasTool(question.toolName ?? '(unnamed)')) return decidePermission(question, session, host);
  const policy = session.config.permissionPolicy;
  const askKinds: string[] = policy.askKinds ?? [];
  const askTools: string[] = policy.askTools ?? [];
  const byKind = askKinds.includes(question.kind);
  const byTool = question.toolName !== undefined && askTools.includes(question.toolName);
  if (!byKind && !byTool) return decidePermission(question, session, host);
  // Read only when the answer would otherwise be to ask (the approvals read model).
  const grant = await grantedFor(question);
  if (grant !== undefined) return { approved: true, reason: grant, decidedBy: 'session-grant' };
  return {
    ask: true,
    reason: byKind
      ? `the permission policy asks a person for ${question.kind} (askKinds)`
      : `the permission policy asks a person for tool ${question.toolName} (askTools)`,
  };
}

/**
 * The session's permissionPolicy. By default only the session's own tools are approved; shell, file
 * writes, URLs and every other kind are denied unless the policy lists the kind in `allowKinds`.
 * A `read` in `allowKinds` is approved inside the session's working directory only (the CLI's own read
 * permission covers any path: `/proc/<pid>/environ`, files elsewhere), unless host permissions are on.
 * A sub-agent's allowlist is not checked here (spec: subagent-tool-dispatch, "It does not apply to
 * permission.request"): the tool call that follows is refused by the router with the spec's
 * `Tool '<name>' is not supported by this client instance.`, which is what the model must read.
 */
export function decidePermission(question: PermissionQuestion, session: LiveSession, host: HostAccess): PermissionDecision {
  const policy = session.config.permissionPolicy;
  if (question.kind === 'custom-tool') {
    const tool = question.toolName ?? '(unnamed)';
    if (!policy.approveOwnTools) return { approved: false, reason: 'the permission policy refuses custom tools (approveOwnTools: false)' };
    if (!session.hasTool(tool)) return { approved: false, reason: `tool ${tool} is not registered on the session` };
    return { approved: true, reason: `tool ${tool} is one of the session's own tools` };
  }
  if ((policy.allowKinds as string[]).includes(question.kind)) {
    if (question.kind === 'read' && !host.hostPermissions) {
      // issue 42: a session with a workspace works in its own worktree, and reads only there.
      const workingDirectory = session.config.workspace?.path ?? host.workingDirectory;
      const outside = readOutsideWorkingDirectory(question.path, workingDirectory);
      if (outside) {
        return {
          approved: false,
          reason: `${outside}: a read the permission policy allows reaches the working directory only, unless the operator sets SWITCHBOARD_ALLOW_HOST_PERMISSIONS=true`,
        };
      }
      return { approved: true, reason: `the permission policy allows read inside the working directory ${workingDirectory}` };
    }
    return { approved: true, reason: `the permission policy allows ${question.kind}` };
  }
  return {
    approved: false,
    reason: `${question.kind} access is not allowed by the session's permission policy (allowKinds: [${policy.allowKinds.join(', ')}])`,
  };
}
