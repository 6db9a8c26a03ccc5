// A session's event stream (its newest pages, then live) as the conversation the chat page shows:
// messages as bubbles, tool calls, permission decisions and sub-agent launches as steps, failures as
// error bubbles. Pure: the page folds the events it has loaded (a contiguous range of the stream)
// through conversationOf. The session's status is the service's (Session.status), never re-derived here.

/** What the page keeps of each event of the session's stream (the sessionEvents subscription). */
export interface SessionEventLike {
  type: string;
  streamPosition: number;
  recordedAt: string;
  data: unknown;
}

export interface TeamProblem {
  id: string;
  reason: string;
}

export type StepStatus = 'running' | 'succeeded' | 'failed' | 'denied';

export interface ToolStep {
  kind: 'tool';
  key: string;
  toolCallId: string;
  toolName: string;
  /** The sub-agent that called it; unset: the main agent. */
  agent?: string;
  arguments: unknown;
  status: StepStatus;
  result?: string;
  /** Why it failed or was refused (an allowlist refusal says so). */
  reason?: string;
  latencyMs?: number;
}

export interface SubAgentStep {
  kind: 'subagent';
  key: string;
  toolCallId: string;
  agentName: string;
  displayName?: string;
  childSessionId?: string;
  /** What the main agent asked it (the task tool's prompt). */
  prompt?: string;
  status: 'running' | 'completed' | 'failed';
  /** Its last answer. */
  answer?: string;
  error?: string;
  durationMs?: number;
  totalToolCalls?: number;
  /** Tool calls and permission decisions made by the sub-agent, and what a person steered it with, in order. */
  steps: Array<ToolStep | PermissionStep | SteerStep>;
}

/** What a person said to a running agent (session.steered): its next model request carried it. */
export interface SteerStep {
  kind: 'steer';
  key: string;
  text: string;
  agentName: string;
  target: 'main' | 'subagent';
  /** Who sent it: console or api. */
  by: string;
  at: string;
  /** Set when the CLI did not take it (session.steer_failed right after). */
  failed?: string;
}

export interface PermissionStep {
  kind: 'permission';
  key: string;
  agent?: string;
  /** shell, write, read, url, mcp… */
  permission: string;
  /** The tool it was asked for, when the request names one (custom tools, MCP). */
  toolName?: string;
  request: unknown;
  approved: boolean;
  reason?: string;
  latencyMs?: number;
  /**
   * The policy's own approval of one of the session's tools (agent_run and the like): nothing a person
   * decided or needs to read, so the chat hides it unless asked.
   */
  automatic: boolean;
}

/** What the run of a delegation says of itself, as far as the session's stream tells. */
export type RunCardStatus = 'starting' | 'running' | 'completed' | 'failed' | 'stopped' | 'interrupted' | 'refused';

/**
 * A delegation: the main agent's agent_run call, shown as the run it started (or checked on), linked to
 * the run page once its run id is known (the tool's result, or the run's progress before that).
 */
export interface RunCard {
  kind: 'run';
  key: string;
  toolCallId: string;
  agentId?: string;
  /** The task the agent was given (agent_run's prompt); unset when the call resumes or checks a run. */
  task?: string;
  runId?: string;
  background: boolean;
  status: RunCardStatus;
  /** The run's last answer or why it failed, as the session's stream has it. */
  output?: string;
  error?: string;
  startedAt: number;
  /** From the call to the run's end (a background run ends after its call returns). */
  durationMs?: number;
}

export type ConversationItem =
  | { kind: 'user'; key: string; text: string; at: string }
  | { kind: 'assistant'; key: string; text: string; at: string; streaming: boolean }
  | ToolStep
  | SubAgentStep
  | PermissionStep
  | SteerStep
  | RunCard
  | { kind: 'question'; key: string; requestId: string; agent?: string; question: string; answer?: string; outcome: string }
  | { kind: 'error'; key: string; action: 'start' | 'resume' | 'message' | 'cli'; text: string; problems: TeamProblem[] }
  /** `runs`: runs the notice names, each linked to its run page, after `runsText`. */
  | { kind: 'notice'; key: string; text: string; runsText?: string; runs?: Array<{ runId: string; agentId?: string }> };

export interface Conversation {
  items: ConversationItem[];
  /** The stream position of the last event folded in: a replay after a reconnect skips what is already here. */
  lastPosition: number;
}

type Json = Record<string, unknown>;

const asObject = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const asString = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const safeParse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
const asNumber = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

function problemsOf(value: unknown): TeamProblem[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((p) => {
    const { id, reason } = asObject(p);
    return typeof id === 'string' && typeof reason === 'string' ? [{ id, reason }] : [];
  });
}

/** The text of a tool result as the CLI records it ({ content }, a string, or anything else as JSON). */
function resultText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  const content = asObject(value).content;
  if (typeof content === 'string') return content;
  return JSON.stringify(value);
}

/** The tool calls of Switchboard's delegation tools, shown as run cards rather than generic steps. */
const RUN_TOOL = 'agent_run';
const RUN_STATUSES: ReadonlySet<string> = new Set(['running', 'completed', 'failed', 'stopped', 'interrupted', 'refused']);
/** How the permission policy words its approval of one of the session's own tools (permission-policy.ts). */
const OWN_TOOL_APPROVAL = /^tool \S+ is one of the session's own tools$/;

/** agent_run answers JSON {run_id, agent_id, status, output?, error?}; anything else tells nothing. */
function runResultOf(value: unknown): { runId?: string; agentId?: string; status?: string; output?: string; error?: string } {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      return {};
    }
  }
  const result = asObject(parsed);
  const error = result.error;
  return {
    runId: asString(result.run_id),
    agentId: asString(result.agent_id),
    status: asString(result.status),
    output: asString(result.output),
    error: typeof error === 'string' ? error : asString(asObject(error).message),
  };
}

function timeOf(event: SessionEventLike): number {
  return Date.parse(asString(asObject(event.data).timestamp) ?? event.recordedAt);
}

/**
 * Folds a session's events, in stream order, into its conversation. Its status is not folded here:
 * the service folds it (the sessions read model) and the page reads it from the API's typed field.
 */
export function conversationOf(events: readonly SessionEventLike[]): Conversation {
  const items: ConversationItem[] = [];
  const tools = new Map<string, ToolStep>();
  const toolStarted = new Map<string, number>();
  // Sub-agent launches by the task tool call that made them, and by the child's id in the CLI's events.
  const launches = new Map<string, SubAgentStep>();
  const byChild = new Map<string, SubAgentStep>();
  const streaming = new Map<string, { kind: 'assistant'; key: string; text: string; at: string; streaming: boolean }>();
  const questions = new Map<string, Extract<ConversationItem, { kind: 'question' }>>();
  // Delegations by the agent_run call that made them, and by the run they started.
  const runCalls = new Map<string, RunCard>();
  const runsById = new Map<string, RunCard>();
  let lastPosition = 0;

  /** The card of an agent_run call, made by whichever of its events comes first. */
  const runCard = (toolCallId: string, key: string, event: SessionEventLike, args: unknown): RunCard => {
    let card = runCalls.get(toolCallId);
    if (!card) {
      const given = asObject(typeof args === 'string' ? safeParse(args) : args);
      card = {
        kind: 'run',
        key,
        toolCallId,
        agentId: asString(given.agent_id),
        task: asString(given.prompt),
        runId: asString(given.run_id),
        background: given.background === true,
        status: 'starting',
        startedAt: timeOf(event),
      };
      runCalls.set(toolCallId, card);
      if (card.runId) runsById.set(card.runId, card);
      items.push(card);
    }
    return card;
  };
  /** What the call's result says of the run: its id, and its status when it already ended (a sync run). */
  const settleRunCall = (card: RunCard, result: unknown, failed: boolean, failure: string | undefined, at: number) => {
    const told = runResultOf(result);
    card.agentId ??= told.agentId;
    if (told.runId && !card.runId) {
      card.runId = told.runId;
      runsById.set(told.runId, card);
    }
    card.output = told.output ?? card.output;
    card.error = told.error ?? failure ?? card.error;
    const status = told.status && RUN_STATUSES.has(told.status) ? (told.status as RunCardStatus) : failed ? 'failed' : undefined;
    if (status && card.status !== 'completed' && card.status !== 'failed') card.status = status;
    else if (card.status === 'starting') card.status = 'running';
    if (card.status !== 'running' && card.durationMs === undefined) card.durationMs = Math.max(0, at - card.startedAt);
  };

  /** A step goes under its sub-agent when the event names one we know, else in the main conversation. */
  const place = (step: ToolStep | PermissionStep | SteerStep, childSessionId: string | undefined) => {
    const parent = childSessionId ? byChild.get(childSessionId) : undefined;
    if (parent) parent.steps.push(step);
    else items.push(step);
  };

  let lastSteer: SteerStep | undefined;
  for (const event of events) {
    lastPosition = Math.max(lastPosition, event.streamPosition);
    const data = asObject(event.data);
    const key = `e${event.streamPosition}`;
    const childId = asString(data.agentId);
    const payload = asObject(data.payload);

    switch (event.type) {
      case 'session.resumed':
        items.push({ kind: 'notice', key, text: 'Session resumed.' });
        break;
      case 'session.message_sent':
        items.push({ kind: 'user', key, text: asString(data.prompt) ?? '', at: event.recordedAt });
        break;
      case 'session.start_failed':
      case 'session.resume_failed': {
        const action = event.type === 'session.start_failed' ? 'start' : 'resume';
        items.push({ kind: 'error', key, action, text: asString(data.error) ?? `The session could not ${action}`, problems: problemsOf(data.problems) });
        break;
      }
      case 'session.message_failed':
        items.push({ kind: 'error', key, action: 'message', text: asString(data.error) ?? 'The message failed', problems: [] });
        break;
      case 'session.interrupted':
        items.push({ kind: 'notice', key, text: `Interrupted: ${asString(data.reason) ?? 'the Copilot CLI went away'}` });
        break;
      case 'session.destroyed':
        items.push({ kind: 'notice', key, text: 'Session destroyed.' });
        break;
      case 'session.abort_requested': {
        // The service stops the foreground runs the turn waits on (their cards follow); background runs go on.
        const open = [...runCalls.values()].filter((c) => c.status === 'running' || c.status === 'starting');
        const goOn = open.filter((c): c is RunCard & { runId: string } => c.background && c.runId !== undefined);
        const waitedOn = open.some((c) => !c.background);
        items.push({
          kind: 'notice',
          key,
          text: `Stop requested: the agent stops its turn.${waitedOn ? ' The runs it waits on stop with it.' : ''}`,
          ...(goOn.length > 0 ? { runs: goOn.map((c) => ({ runId: c.runId, agentId: c.agentId })), runsText: 'Background runs go on:' } : {}),
        });
        break;
      }
      case 'session.steered': {
        // Where it landed: under the sub-agent it was sent to, else in the main conversation.
        const subagentId = asString(data.subagentId);
        lastSteer = {
          kind: 'steer',
          key,
          text: asString(data.message) ?? '',
          agentName: asString(data.agentName) ?? 'agent',
          target: subagentId ? 'subagent' : 'main',
          by: asString(data.steeredBy) ?? 'someone',
          at: event.recordedAt,
        };
        place(lastSteer, subagentId);
        break;
      }
      case 'session.steer_failed':
        if (lastSteer) lastSteer.failed = asString(data.error) ?? 'the Copilot CLI did not take it';
        break;
      case 'session.sub_agents_changed': {
        const ids = Array.isArray(data.subAgents) ? data.subAgents.filter((id): id is string => typeof id === 'string') : [];
        items.push({ kind: 'notice', key, text: `Sub-agents changed to ${ids.length ? ids.join(', ') : 'none'} (in effect from the next resume).` });
        break;
      }
      case 'cli.session.error':
        if (!childId)
          items.push({ kind: 'error', key, action: 'cli', text: asString(payload.message) ?? 'The Copilot CLI reported an error', problems: [] });
        break;
      case 'cli.assistant.message_delta': {
        if (childId) break;
        const messageId = asString(payload.messageId);
        const delta = asString(payload.deltaContent);
        if (!messageId || !delta) break;
        let bubble = streaming.get(messageId);
        if (!bubble) {
          bubble = { kind: 'assistant', key: `m-${messageId}`, text: '', at: event.recordedAt, streaming: true };
          streaming.set(messageId, bubble);
          items.push(bubble);
        }
        bubble.text += delta;
        break;
      }
      case 'cli.assistant.message': {
        const text = asString(payload.content) ?? '';
        if (childId) {
          const launch = byChild.get(childId);
          if (launch && text.trim()) launch.answer = text;
          break;
        }
        const messageId = asString(payload.messageId);
        const bubble = messageId ? streaming.get(messageId) : undefined;
        if (bubble) {
          bubble.text = text;
          bubble.streaming = false;
          if (!text.trim()) items.splice(items.indexOf(bubble), 1);
        } else if (text.trim()) {
          items.push({ kind: 'assistant', key, text, at: event.recordedAt, streaming: false });
        }
        break;
      }
      case 'cli.tool.execution_start': {
        const toolCallId = asString(payload.toolCallId) ?? key;
        const toolName = asString(payload.toolName) ?? 'tool';
        toolStarted.set(toolCallId, timeOf(event));
        // A question (ask_user) is shown as the question it asks (user_input.* events), not as a tool call.
        if (toolName === 'ask_user') break;
        if (toolName === RUN_TOOL && !childId) {
          runCard(toolCallId, key, event, payload.arguments);
          break;
        }
        if (toolName === 'task' && !childId) {
          // The launch of a sub-agent: one step for it, filled in by subagent.* and the tool's result.
          const args = asObject(payload.arguments);
          const launch: SubAgentStep = {
            kind: 'subagent',
            key,
            toolCallId,
            agentName: asString(args.agent_type) ?? 'sub-agent',
            prompt: asString(args.prompt),
            status: 'running',
            steps: [],
          };
          launches.set(toolCallId, launch);
          items.push(launch);
          break;
        }
        const existing = tools.get(toolCallId);
        if (existing) break;
        const step: ToolStep = { kind: 'tool', key, toolCallId, toolName, arguments: payload.arguments, status: 'running' };
        if (childId) step.agent = byChild.get(childId)?.agentName;
        tools.set(toolCallId, step);
        place(step, childId);
        break;
      }
      case 'cli.tool.execution_complete': {
        const toolCallId = asString(payload.toolCallId) ?? '';
        const started = toolStarted.get(toolCallId);
        const latencyMs = started === undefined ? undefined : Math.max(0, timeOf(event) - started);
        const call = runCalls.get(toolCallId);
        if (call) {
          settleRunCall(call, resultText(payload.result), payload.success === false, asString(asObject(payload.error).message), timeOf(event));
          break;
        }
        const launch = launches.get(toolCallId);
        if (launch) {
          if (launch.durationMs === undefined && latencyMs !== undefined) launch.durationMs = latencyMs;
          if (payload.success === false) {
            launch.status = 'failed';
            launch.error ??= asString(asObject(payload.error).message);
          } else if (launch.status === 'running') launch.status = 'completed';
          launch.answer ??= resultText(payload.result);
          break;
        }
        const step = tools.get(toolCallId);
        if (!step) break;
        step.latencyMs ??= latencyMs;
        if (step.status === 'running') step.status = payload.success === false ? 'failed' : 'succeeded';
        step.result ??= resultText(payload.result);
        if (payload.success === false) step.reason ??= asString(asObject(payload.error).message);
        break;
      }
      case 'subagent.started': {
        const toolCallId = asString(data.toolCallId) ?? key;
        let launch = launches.get(toolCallId);
        if (!launch) {
          launch = { kind: 'subagent', key, toolCallId, agentName: asString(data.agentName) ?? 'sub-agent', status: 'running', steps: [] };
          launches.set(toolCallId, launch);
          items.push(launch);
        }
        launch.agentName = asString(data.agentName) ?? launch.agentName;
        launch.displayName = asString(data.agentDisplayName);
        launch.childSessionId = asString(data.childSessionId);
        if (launch.childSessionId) byChild.set(launch.childSessionId, launch);
        break;
      }
      case 'child_session.mapped': {
        const child = asString(data.childSessionId);
        const launch = [...launches.values()].find((l) => l.agentName === data.agentName && !l.childSessionId);
        if (child && launch) {
          launch.childSessionId = child;
          byChild.set(child, launch);
        }
        break;
      }
      case 'subagent.completed':
      case 'subagent.failed': {
        const launch = launches.get(asString(data.toolCallId) ?? '');
        if (!launch) break;
        launch.status = event.type === 'subagent.completed' ? 'completed' : 'failed';
        launch.error = asString(data.error) ?? launch.error;
        launch.durationMs = asNumber(data.durationMs) ?? launch.durationMs;
        launch.totalToolCalls = asNumber(data.totalToolCalls) ?? launch.totalToolCalls;
        break;
      }
      case 'tool_call.routed':
      case 'tool_call.denied': {
        // Custom tools routed by Switchboard: the same call as the CLI's tool events, with the latency and
        // outcome measured here, and the allowlist refusals.
        const toolCallId = asString(data.toolCallId) ?? key;
        const child = asString(data.childSessionId);
        if (asString(data.toolName) === RUN_TOOL && !child) {
          const card = runCard(toolCallId, key, event, data.arguments);
          const refused = event.type === 'tool_call.denied' || asString(data.outcome) === 'denied';
          settleRunCall(card, data.result, refused || asString(data.outcome) === 'failure', asString(data.reason), timeOf(event));
          if (refused) card.status = 'refused';
          break;
        }
        let step = tools.get(toolCallId);
        if (!step) {
          step = { kind: 'tool', key, toolCallId, toolName: asString(data.toolName) ?? 'tool', arguments: data.arguments, status: 'running' };
          tools.set(toolCallId, step);
          place(step, child);
        }
        step.agent = asString(data.agentName) ?? step.agent;
        step.latencyMs = asNumber(data.latencyMs) ?? step.latencyMs;
        const outcome = asString(data.outcome);
        step.status = event.type === 'tool_call.denied' || outcome === 'denied' ? 'denied' : outcome === 'success' ? 'succeeded' : 'failed';
        step.result = resultText(data.result) ?? step.result;
        step.reason = asString(data.reason) ?? step.reason;
        break;
      }
      case 'permission.decided': {
        const request = asObject(data.arguments);
        const permission = asString(request.kind) ?? 'permission';
        const approved = data.outcome === 'approved';
        const reason = asString(data.reason);
        const step: PermissionStep = {
          kind: 'permission',
          key,
          agent: asString(data.agentName),
          permission,
          toolName: asString(data.toolName) ?? asString(request.toolName),
          request: data.arguments,
          approved,
          reason,
          latencyMs: asNumber(data.latencyMs),
          automatic: permission === 'custom-tool' && approved && OWN_TOOL_APPROVAL.test(reason ?? ''),
        };
        place(step, asString(data.childSessionId));
        break;
      }
      case 'run.progress': {
        // A foreground run says it started (naming its agent_run call) before its agent_run call returns:
        // the first sign of its run id. Progress of older runs, without the call, goes to the agent's first waiting card.
        const runId = asString(data.runId);
        if (!runId || runsById.has(runId)) break;
        const toolCallId = asString(data.toolCallId);
        const card = toolCallId
          ? runCalls.get(toolCallId)
          : [...runCalls.values()].find((c) => !c.runId && c.agentId === asString(data.agentId) && c.status === 'starting');
        if (!card) break;
        card.runId = runId;
        card.status = 'running';
        runsById.set(runId, card);
        break;
      }
      case 'run.ended': {
        const card = runsById.get(asString(data.runId) ?? '');
        const status = asString(data.status);
        if (!card || !status || !RUN_STATUSES.has(status)) break;
        card.status = status as RunCardStatus;
        card.output = asString(data.output) ?? card.output;
        card.error = asString(data.error) ?? card.error;
        card.durationMs = Math.max(0, timeOf(event) - card.startedAt);
        break;
      }
      case 'user_input.requested': {
        const args = asObject(data.arguments);
        const requestId = asString(data.requestId) ?? key;
        const item = {
          kind: 'question' as const,
          key,
          requestId,
          agent: asString(data.agentName),
          question: asString(args.question) ?? '',
          outcome: 'pending',
        };
        questions.set(requestId, item);
        items.push(item);
        break;
      }
      case 'user_input.answered': {
        // The service records the answer without its request id: it answers the oldest open question of
        // the same text from the same agent.
        const item =
          questions.get(asString(data.requestId) ?? '') ??
          [...questions.values()].find(
            (q) => q.outcome === 'pending' && q.question === asString(asObject(data.arguments).question) && q.agent === asString(data.agentName),
          );
        if (!item) break;
        item.outcome = asString(data.outcome) ?? 'answered';
        item.answer = asString(asObject(data.result).answer);
        break;
      }
      default:
        break;
    }
  }
  return { items, lastPosition };
}

/** Whether a session in this status takes a new message now. */
export function acceptsMessages(status: string): boolean {
  return status === 'active' || status === 'idle';
}

/** Arguments as one short line for a step's summary (the full JSON is in its details). */
export function argumentsLine(value: unknown, max = 120): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** "230 ms", "4.2 s", "3 min 5 s". */
export function duration(ms: number | undefined): string {
  if (ms === undefined) return '';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** What the reader asked to see beyond the conversation itself. */
export interface ConversationFilter {
  /** Show the policy's automatic approvals of the session's own tools (hidden by default). */
  automaticPermissions: boolean;
  /** Questions answered in a card below the conversation: not shown a second time as a step. */
  openQuestions: ReadonlySet<string>;
}

/** The items the chat shows: the same fold, less what the reader has not asked for or sees elsewhere. */
export function visibleItems(items: readonly ConversationItem[], filter: ConversationFilter): ConversationItem[] {
  const shown = (item: ConversationItem | ToolStep | PermissionStep | SteerStep) =>
    !(item.kind === 'permission' && item.automatic && !filter.automaticPermissions) &&
    !(item.kind === 'question' && item.outcome === 'pending' && filter.openQuestions.has(item.requestId));
  return items.filter(shown).map((item) => (item.kind === 'subagent' && !item.steps.every(shown) ? { ...item, steps: item.steps.filter(shown) } : item));
}

/** Who a steer can reach now: the main agent, then each CLI sub-agent still running (by its agentId). */
export function steerTargetsOf(items: readonly ConversationItem[], mainLabel: string): Array<{ subagentId: string; label: string }> {
  const running = items.flatMap((item) =>
    item.kind === 'subagent' && item.status === 'running' && item.childSessionId
      ? [{ subagentId: item.childSessionId, label: `sub-agent ${item.displayName ?? item.agentName}` }]
      : [],
  );
  return [{ subagentId: '', label: mainLabel }, ...running];
}

/** How many automatic approvals the filter hides, for the toggle's label. */
export function automaticPermissionCount(items: readonly ConversationItem[]): number {
  let count = 0;
  for (const item of items) {
    if (item.kind === 'permission' && item.automatic) count += 1;
    if (item.kind === 'subagent') count += item.steps.filter((s) => s.kind === 'permission' && s.automatic).length;
  }
  return count;
}
