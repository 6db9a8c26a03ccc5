/** An approval as the inbox reads it (the fields of the `approvals` query it needs). */
export interface ApprovalLike {
  id: string;
  kind: string;
  toolName?: string | null;
  arguments?: unknown;
  sessionId: string;
  agentName?: string | null;
  runId?: string | null;
  rootRunId?: string | null;
  lineagePath: readonly string[];
  requestedAt: string;
}

/** Pending requests of one delegation tree (or of one session's own agents, outside any run). */
export interface ApprovalGroup<A extends ApprovalLike> {
  key: string;
  rootRunId?: string;
  sessionId: string;
  approvals: A[];
}

/**
 * Pending requests grouped by the root run they came from (a session's own requests by session),
 * oldest first inside a group and the group whose oldest request waits longest first: whoever is kept
 * waiting longest is seen first.
 */
export function groupByRootRun<A extends ApprovalLike>(approvals: readonly A[]): Array<ApprovalGroup<A>> {
  const groups = new Map<string, ApprovalGroup<A>>();
  for (const approval of approvals) {
    const key = approval.rootRunId ? `run:${approval.rootRunId}` : `session:${approval.sessionId}`;
    let group = groups.get(key);
    if (!group) {
      group = { key, sessionId: approval.sessionId, approvals: [], ...(approval.rootRunId ? { rootRunId: approval.rootRunId } : {}) };
      groups.set(key, group);
    }
    group.approvals.push(approval);
  }
  const byTime = (a: ApprovalLike, b: ApprovalLike) => a.requestedAt.localeCompare(b.requestedAt);
  for (const group of groups.values()) group.approvals.sort(byTime);
  return [...groups.values()].sort((a, b) => byTime(a.approvals[0], b.approvals[0]));
}

/** Who asked, from the root of the team down: "lead → researcher"; the main agent when nobody is named. */
export function lineageOf(approval: Pick<ApprovalLike, 'lineagePath' | 'agentName'>): string {
  if (approval.lineagePath.length > 0) return approval.lineagePath.join(' → ');
  return approval.agentName ?? 'main agent';
}

/** What the request would do, in one line: the command, the file, the URL, or the tool's arguments. */
export function requestLine(approval: Pick<ApprovalLike, 'kind' | 'toolName' | 'arguments'>): string {
  const args = approval.arguments && typeof approval.arguments === 'object' ? (approval.arguments as Record<string, unknown>) : {};
  const text = (key: string) => (typeof args[key] === 'string' && args[key] !== '' ? args[key] : undefined);
  const line =
    text('fullCommandText') ??
    text('commandText') ??
    text('command') ??
    text('url') ??
    text('fileName') ??
    text('path') ??
    (args.args !== undefined ? JSON.stringify(args.args) : undefined);
  const what = approval.toolName ? `${approval.kind} · ${approval.toolName}` : approval.kind;
  return line ? `${what}: ${line}` : what;
}

/** The count a badge shows: "500+" when there are more than a page. */
export function countLabel(count: number, more: boolean): string {
  return more ? `${count}+` : String(count);
}
