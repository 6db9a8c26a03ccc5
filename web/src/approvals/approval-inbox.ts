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

/** Display names of the library's agents by id; an agent not in it is shown by its id. */
export type AgentNames = ReadonlyMap<string, string>;

const nameOf = (id: string, names: AgentNames) => names.get(id) ?? id;

/**
 * Who asked, from the root of the team down: "lead → researcher", agents by their display names when
 * `names` has them; the main agent when nobody is named.
 */
export function lineageOf(approval: Pick<ApprovalLike, 'lineagePath' | 'agentName'>, names: AgentNames = new Map()): string {
  if (approval.lineagePath.length > 0) return approval.lineagePath.map((id) => nameOf(id, names)).join(' → ');
  return approval.agentName ? nameOf(approval.agentName, names) : 'main agent';
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

/** Who asked, in words: the last agent of the lineage by its display name; the session's own agent when nobody is named. */
export function requesterOf(approval: Pick<ApprovalLike, 'lineagePath' | 'agentName'>, names: AgentNames): string {
  const who = approval.agentName ?? approval.lineagePath.at(-1);
  return !who || who === 'main' ? 'The main agent' : nameOf(who, names);
}

const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/**
 * What the request would do, as a sentence a person reads (issue 39): "Lead wants to start Code
 * Reviewer on: <task>", "… wants to run `ls -la`", "… wants to write <path>", "… wants to fetch <url>";
 * any other tool by its name and kind. The raw request stays in the card's disclosure.
 */
export function requestSentence(approval: Pick<ApprovalLike, 'kind' | 'toolName' | 'arguments' | 'lineagePath' | 'agentName'>, names: AgentNames): string {
  const who = requesterOf(approval, names);
  const args = approval.arguments && typeof approval.arguments === 'object' ? (approval.arguments as Record<string, unknown>) : {};
  const toolArgs = args.args && typeof args.args === 'object' ? (args.args as Record<string, unknown>) : {};
  const text = (from: Record<string, unknown>, ...keys: string[]) =>
    keys.map((key) => from[key]).find((value): value is string => typeof value === 'string' && value.trim() !== '');
  const tool = approval.toolName ?? text(args, 'toolName');
  if (tool === 'agent_run') {
    const agent = text(toolArgs, 'agent_id');
    const task = text(toolArgs, 'prompt', 'task');
    if (agent) return `${who} wants to start ${nameOf(agent, names)}${task ? ` on: ${clip(task)}` : ''}`;
    const run = text(toolArgs, 'run_id');
    if (run) return `${who} wants to resume run ${run.slice(0, 8)}`;
  }
  if (tool === 'agent_stop') return `${who} wants to stop a run`;
  switch (approval.kind) {
    case 'shell': {
      const command = text(args, 'fullCommandText', 'commandText', 'command');
      return command ? `${who} wants to run \`${clip(command)}\`` : `${who} wants to run a shell command`;
    }
    case 'write': {
      const file = text(args, 'fileName', 'path');
      return file ? `${who} wants to write ${file}` : `${who} wants to write a file`;
    }
    case 'read': {
      const file = text(args, 'path', 'fileName');
      return file ? `${who} wants to read ${file}` : `${who} wants to read a file`;
    }
    case 'url': {
      const url = text(args, 'url');
      return url ? `${who} wants to fetch ${url}` : `${who} wants to fetch a URL`;
    }
    case 'mcp': {
      const server = text(args, 'serverName');
      return `${who} wants to use ${tool ?? 'a tool'}${server ? ` of the ${server} MCP server` : ' of an MCP server'}`;
    }
    case 'memory':
      return `${who} wants to change its memory`;
    default:
      return tool ? `${who} wants to use the tool ${tool}` : `${who} asks for a ${approval.kind} permission`;
  }
}
