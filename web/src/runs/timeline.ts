// The run page's timeline: the subtree's events as steps a person reads ("reviewer ran `view main.ts`,
// 12 ms", "asked you to approve `bash`", "answered: …"), one per thing an agent did, without event types
// or stream ids. Pure and incremental: the page folds each event once, after the run store (which names
// the run's agent); a tool call's start and end are one step, replaced (not mutated) when it ends, so a
// memoized row re-renders only when its own step changed. The raw events stay on each step.

import { describeStop, formatDuration, type RunStore, type RunStreamEvent } from './run-tree';

/** What a step is about: the timeline's filter. `internal` is the CLI's bookkeeping, hidden unless asked. */
export type StepKind = 'run' | 'tool' | 'approval' | 'question' | 'message' | 'problem' | 'internal';

export const STEP_KINDS: ReadonlyArray<{ kind: StepKind; label: string }> = [
  { kind: 'run', label: 'Runs starting and ending' },
  { kind: 'tool', label: 'Tool calls' },
  { kind: 'approval', label: 'Approvals and permissions' },
  { kind: 'question', label: 'Questions' },
  { kind: 'message', label: 'Messages and answers' },
  { kind: 'problem', label: 'Problems' },
  { kind: 'internal', label: 'CLI bookkeeping' },
];

/** Plain words, or a name to show as code (a tool, a command, a file). */
export type Segment = string | { code: string };

export interface TimelineStep {
  /** Stable across updates of the step: `e<global position>` of its first event. */
  key: string;
  runId: string;
  /** The run's agent, or the CLI sub-agent inside the run that did it. */
  agent: string;
  kind: StepKind;
  /** The sentence, without the agent's name in front. */
  words: Segment[];
  /** ISO time of its first event. */
  at: string;
  /** Still going (a tool call without its result yet). */
  pending?: boolean;
  /** The events it was read from, oldest first. */
  events: RunStreamEvent[];
  /** Lower-case agent and words: what the search matches. */
  searchText: string;
}

export interface Timeline {
  steps: TimelineStep[];
  /** Open steps by tool call id (index in `steps`): their end or routing record joins them. */
  readonly tools: Map<string, number>;
  /** Open questions by request id, and by agent + question text (the answer may lack the id). */
  readonly questions: Map<string, number>;
  /** CLI sub-agents inside a run: child session id → agent name. */
  readonly subAgents: Map<string, string>;
  /** Steps per kind, for the filter's counts. */
  readonly counts: Map<StepKind, number>;
  /** Each run's last message (its index and text): the run's answer is usually that message again. */
  readonly lastSaid: Map<string, { index: number; text: string }>;
}

export function emptyTimeline(): Timeline {
  return { steps: [], tools: new Map(), questions: new Map(), subAgents: new Map(), counts: new Map(), lastSaid: new Map() };
}

type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const str = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
const num = (value: unknown): number | undefined => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

const THREAD_STREAM = /^session-sub-agent-(.+)$/;
const RUN_STREAM = /^run-(.+)$/;

/** One line of at most `max` characters: what a timeline row quotes of a prompt, answer or argument. */
export function oneLine(text: string, max = 160): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Markdown's emphasis and code marks dropped, for a one-line quote (the full text renders as markdown). */
export function plainText(markdown: string): string {
  return markdown.replace(/\*\*|__|`/g, '').replace(/^#+\s+/gm, '');
}

/**
 * A reason as a person reads it: the service words some reasons for the model and for API callers
 * ("…; resume it with agent_run {run_id} (POST /api/runs/:id/resume) or stop it"); the page has buttons
 * for that, so the how-to-call-the-API tail goes.
 */
export function plainReason(reason: string): string {
  return reason
    .replace(/\s*\((?:agent_run|POST )[^)]*\)/g, '')
    .replace(/;\s*resume it with agent_run.*$/i, '')
    .replace(/;\s*resume the run to continue$/i, '')
    .trim();
}

/** The one argument that says what a tool call was about (a path, a command, a pattern…). */
const SUBJECT_ARGUMENTS = ['path', 'command', 'fullCommandText', 'fileName', 'pattern', 'url', 'query', 'agent_id', 'run_id', 'description'];

function subjectOf(args: unknown): string | undefined {
  if (typeof args === 'string') return oneLine(args, 60);
  const record = obj(args);
  for (const name of SUBJECT_ARGUMENTS) {
    const value = str(record[name]);
    if (value) return oneLine(value, 60);
  }
  return undefined;
}

/** `view main.ts`, `bash npm test`, `grep TODO`: the tool and what it was about. */
export function toolCall(toolName: string, args: unknown): string {
  const subject = subjectOf(args);
  return subject ? `${toolName} ${subject}` : toolName;
}

function ordinal(n: number): string {
  return n === 2 ? 'second' : n === 3 ? 'third' : `${n}th`;
}

/** Who decided an approval, from the reason the approvals broker gives ("approved by api: …"). */
function askedDecision(reason: string | undefined): { asked: boolean; words: string } {
  if (!reason) return { asked: false, words: '' };
  const by = /^(approved|denied) by ([^:]+)(?::\s*(.*))?$/.exec(reason);
  if (by) {
    const who = by[2] === 'api' || by[2] === 'console' ? 'you' : by[2];
    return { asked: true, words: `${by[1] === 'approved' ? 'approved' : 'denied'} by ${who}${by[3] ? ` (${oneLine(by[3], 80)})` : ''}` };
  }
  if (/^denied: no decision within/.test(reason)) return { asked: true, words: 'nobody answered in time, so it was denied' };
  if (/^expired: /.test(reason)) return { asked: true, words: `it expired (${oneLine(reason.slice(9), 80)})` };
  return { asked: false, words: '' };
}

interface StepDraft {
  kind: StepKind;
  words: Segment[];
  pending?: boolean;
}

/** Which run an event belongs to: its run stream's run, or the run whose thread session it is on. */
function runOf(event: RunStreamEvent, data: Json): string | undefined {
  const thread = THREAD_STREAM.exec(event.streamId)?.[1];
  if (thread) return thread;
  if (RUN_STREAM.test(event.streamId)) return str(data.runId);
  return undefined;
}

function add(timeline: Timeline, step: TimelineStep): number {
  timeline.steps.push(step);
  timeline.counts.set(step.kind, (timeline.counts.get(step.kind) ?? 0) + 1);
  return timeline.steps.length - 1;
}

function replace(timeline: Timeline, index: number, change: Partial<TimelineStep>, event: RunStreamEvent): void {
  const old = timeline.steps[index];
  const next = { ...old, ...change, events: [...old.events, event] };
  if (change.kind && change.kind !== old.kind) {
    timeline.counts.set(old.kind, (timeline.counts.get(old.kind) ?? 1) - 1);
    timeline.counts.set(change.kind, (timeline.counts.get(change.kind) ?? 0) + 1);
  }
  next.searchText = searchTextOf(next);
  timeline.steps[index] = next;
}

/** What the search matches: the agent and the sentence as shown (no backticks). */
function searchTextOf(step: Pick<TimelineStep, 'agent' | 'words'>): string {
  return `${step.agent} ${step.words.map((s) => (typeof s === 'string' ? s : s.code)).join('')}`.toLowerCase();
}

/** A step's sentence as text, code in backticks: what tests read. */
export function stepText(step: Pick<TimelineStep, 'words'>): string {
  return step.words.map((s) => (typeof s === 'string' ? s : `\`${s.code}\``)).join('');
}

/** Latency of a tool call: the routing record's, else start to end by the events' times. */
function latencyOf(start: RunStreamEvent | undefined, end: RunStreamEvent, data: Json): number | undefined {
  const measured = num(data.latencyMs);
  if (measured !== undefined) return measured;
  if (!start) return undefined;
  const at = (e: RunStreamEvent) => Date.parse(str(obj(e.data).timestamp) ?? e.recordedAt);
  return Math.max(0, at(end) - at(start));
}

/**
 * Folds one event of the run's subtree into the timeline (after the run store folded it, so the store
 * names the run's agent). Every event becomes a step or joins one; what a person has no use for is an
 * `internal` step, hidden unless the filter asks for it.
 */
export function foldStep(timeline: Timeline, store: RunStore, event: RunStreamEvent): void {
  const data = obj(event.data);
  const runId = runOf(event, data) ?? '';
  const run = store.runs.get(runId);
  const childSession = str(data.childSessionId) ?? str(data.agentId);
  const agent = str(data.agentName) ?? (childSession ? timeline.subAgents.get(childSession) : undefined) ?? run?.agentId ?? 'Switchboard';
  const payload = obj(data.payload);
  const key = `e${event.globalPosition}`;
  const make = (draft: StepDraft, who = agent): TimelineStep => {
    const step: TimelineStep = { key, runId, agent: who, at: event.recordedAt, events: [event], searchText: '', ...draft };
    step.searchText = searchTextOf(step);
    return step;
  };

  switch (event.type) {
    case 'cli.tool.execution_start': {
      const toolName = str(payload.toolName) ?? 'a tool';
      if (toolName === 'ask_user') break; // shown as the question it asks (user_input.*)
      const toolCallId = str(payload.toolCallId);
      const call = toolCall(toolName, payload.arguments);
      const index = add(timeline, make({ kind: 'tool', words: ['is running ', { code: call }], pending: true }));
      if (toolCallId) timeline.tools.set(toolCallId, index);
      return;
    }
    case 'cli.tool.execution_complete':
    case 'tool_call.routed':
    case 'tool_call.denied': {
      const toolCallId = str(payload.toolCallId) ?? str(data.toolCallId);
      const index = toolCallId === undefined ? undefined : timeline.tools.get(toolCallId);
      const open = index === undefined ? undefined : timeline.steps[index];
      const toolName = str(data.toolName) ?? str(payload.toolName);
      const call = open?.words.find((s): s is { code: string } => typeof s !== 'string')?.code;
      const what = call ?? toolCall(toolName ?? 'a tool', data.arguments ?? payload.arguments);
      const latency = latencyOf(open?.events[0], event, event.type === 'cli.tool.execution_complete' ? {} : data);
      const took = latency === undefined ? '' : `, ${formatDuration(latency)}`;
      const denied = event.type === 'tool_call.denied' || data.outcome === 'denied';
      const failed = payload.success === false || (event.type === 'tool_call.routed' && data.outcome !== undefined && data.outcome !== 'success');
      const why = str(obj(payload.error).message) ?? str(data.reason);
      const draft: StepDraft = denied
        ? { kind: 'problem', words: ['was refused ', { code: what }, why ? `: ${oneLine(why, 120)}` : ''] }
        : failed
          ? { kind: 'problem', words: ['ran ', { code: what }, `${took}, and it failed${why ? `: ${oneLine(why, 120)}` : ''}`] }
          : { kind: 'tool', words: ['ran ', { code: what }, took] };
      if (index !== undefined && open) {
        // The routing record after the CLI's end only adds its latency when the end had none.
        if (!open.pending && event.type !== 'tool_call.denied' && open.kind === draft.kind) {
          timeline.steps[index] = { ...open, events: [...open.events, event] };
          return;
        }
        replace(timeline, index, { ...draft, pending: false }, event);
        return;
      }
      const added = add(timeline, make(draft));
      if (toolCallId) timeline.tools.set(toolCallId, added);
      return;
    }
    case 'permission.decided': {
      const request = obj(data.arguments);
      const what = str(data.toolName) ?? str(request.kind) ?? 'a permission';
      const subject = subjectOf(request);
      const name = subject && subject !== what ? `${what} ${subject}` : what;
      const reason = str(data.reason);
      const decision = askedDecision(reason);
      const approved = data.outcome === 'approved';
      if (decision.asked) {
        add(timeline, make({ kind: 'approval', words: ['asked you to approve ', { code: name }, `: ${decision.words}`] }));
      } else {
        // Switchboard's own tools (agent_run…) are always allowed: bookkeeping, not a decision.
        const ownTool = approved && reason !== undefined && /one of the session's own tools$/.test(reason);
        add(
          timeline,
          make({
            kind: ownTool ? 'internal' : approved ? 'approval' : 'problem',
            words: [approved ? 'was allowed ' : 'was refused ', { code: name }, reason ? ` (${oneLine(reason, 120)})` : ''],
          }),
        );
      }
      return;
    }
    case 'user_input.requested': {
      const question = str(obj(data.arguments).question) ?? '';
      const index = add(timeline, make({ kind: 'question', words: [`asked you: “${oneLine(question)}”`], pending: true }));
      if (str(data.requestId)) timeline.questions.set(str(data.requestId)!, index);
      timeline.questions.set(`${agent}\n${question}`, index);
      return;
    }
    case 'user_input.answered': {
      const question = str(obj(data.arguments).question) ?? '';
      const byText = `${agent}\n${question}`;
      const index = timeline.questions.get(str(data.requestId) ?? byText) ?? timeline.questions.get(byText);
      const answer = str(obj(data.result).answer);
      const words = [
        `asked you: “${oneLine(question)}”, ${answer ? `you answered “${oneLine(answer, 120)}”` : `it ended unanswered (${str(data.outcome) ?? '?'})`}`,
      ];
      if (index !== undefined) {
        timeline.questions.delete(byText);
        if (str(data.requestId)) timeline.questions.delete(str(data.requestId)!);
        replace(timeline, index, { words, pending: false }, event);
      } else add(timeline, make({ kind: 'question', words }));
      return;
    }
    case 'subagent.started': {
      const name = str(data.agentDisplayName) ?? str(data.agentName) ?? 'a sub-agent';
      const child = str(data.childSessionId);
      if (child) timeline.subAgents.set(child, str(data.agentName) ?? name);
      add(timeline, make({ kind: 'run', words: ['handed work to its sub-agent ', { code: name }] }, run?.agentId ?? agent));
      return;
    }
    case 'subagent.completed':
    case 'subagent.failed': {
      const done = event.type === 'subagent.completed';
      const error = str(data.error);
      const took = num(data.durationMs);
      add(
        timeline,
        make({
          kind: done ? 'run' : 'problem',
          words: [done ? 'finished its part' : `failed${error ? `: ${oneLine(error, 120)}` : ''}`, took === undefined ? '' : `, ${formatDuration(took)}`],
        }),
      );
      return;
    }
    case 'cli.assistant.message': {
      const text = str(payload.content);
      if (text?.trim()) {
        const index = add(timeline, make({ kind: 'message', words: [`said: ${oneLine(plainText(text))}`] }));
        if (!childSession) timeline.lastSaid.set(runId, { index, text: text.trim() });
        return;
      }
      break;
    }
    case 'session.steered': {
      // Where it landed: the agent it reached (the run's, or a CLI sub-agent inside it), in the subtree's order.
      const by = str(data.steeredBy);
      const who = by === 'api' || by === 'console' ? 'you' : (by ?? 'someone');
      add(timeline, make({ kind: 'message', words: [`was steered by ${who}: “${oneLine(str(data.message) ?? '')}”`] }));
      return;
    }
    case 'cli.session.error':
      add(timeline, make({ kind: 'problem', words: [`hit an error in the Copilot CLI: ${oneLine(str(payload.message) ?? 'no message', 160)}`] }));
      return;
    case 'run.started': {
      const parent = str(data.parentRunId) ? store.runs.get(str(data.parentRunId)!) : undefined;
      const prompt = oneLine(str(data.prompt) ?? '');
      const how = data.background === true ? 'in the background' : 'and waited for it';
      add(
        timeline,
        make({
          kind: 'run',
          words: parent ? [`was given a task by ${parent.agentId} (${how}): “${prompt}”`] : [`started on the task: “${prompt}”`],
        }),
      );
      return;
    }
    case 'run.completed': {
      const output = str(data.output);
      const words = [output ? `answered: ${oneLine(plainText(output))}` : 'finished without an answer'];
      // Its last message was the answer: one step says so, not "said: X" and "answered: X".
      const said = timeline.lastSaid.get(runId);
      timeline.lastSaid.delete(runId);
      if (said && output && said.text === output.trim() && timeline.steps[said.index]?.key.startsWith('e')) {
        replace(timeline, said.index, { words }, event);
        return;
      }
      add(timeline, make({ kind: 'message', words }));
      return;
    }
    case 'run.failed':
      add(timeline, make({ kind: 'problem', words: [`failed: ${oneLine(str(data.error) ?? 'no reason given', 200)}`] }));
      return;
    case 'run.interrupted':
      add(timeline, make({ kind: 'problem', words: [`was interrupted: ${oneLine(plainReason(str(data.reason) ?? 'no reason given'), 200)}`] }));
      return;
    case 'run.stopped': {
      const by = obj(data.stoppedBy);
      const sentence = describeStop({
        actor: str(by.actor) ?? '?',
        reason: str(by.reason) ?? '',
        cascadeFrom: str(by.cascadeFrom),
        forced: data.forced === true,
        limit: str(by.limit),
        allowed: num(by.allowed),
        used: num(by.used),
        budgetSessionId: str(by.budgetSessionId),
      });
      add(timeline, make({ kind: 'run', words: [`was s${sentence.slice(1)}`] }));
      return;
    }
    case 'run.resumed': {
      const epoch = num(data.epoch);
      add(timeline, make({ kind: 'run', words: [`was resumed${epoch && epoch > 1 ? ` (its ${ordinal(epoch)} launch)` : ''}`] }));
      return;
    }
    case 'run.budget_warned': {
      const limit = str(data.limit);
      add(
        timeline,
        make({
          kind: 'problem',
          words: [`is close to its budget${limit ? ` for ${limit.replace(/^max_/, '').replace(/_ms$/, '').replace(/_/g, ' ')}` : ''}`],
        }),
      );
      return;
    }
    case 'run.remote_task_linked': {
      // issue 43: a remote agent's run: its service took the prompt as a task (or another instance took over following it).
      const service = str(data.service);
      const taskId = str(data.taskId);
      add(timeline, make({ kind: 'run', words: [`was sent to ${service ?? 'its remote service'} over A2A${taskId ? ` as task ${taskId}` : ''}`] }));
      return;
    }
    case 'run.remote_usage_reported': {
      const tokens = typeof data.totalTokens === 'number' ? `${data.totalTokens.toLocaleString('en')} tokens` : undefined;
      const cost = typeof data.cost === 'number' ? `a cost of ${data.cost.toFixed(4)}${str(data.currency) ? ` ${str(data.currency)}` : ''}` : undefined;
      add(timeline, make({ kind: 'run', words: [`was reported by its remote service to have used ${[tokens, cost].filter(Boolean).join(' and ')}`] }));
      return;
    }
    case 'run.delegation_refused':
      add(
        timeline,
        make({
          kind: 'problem',
          words: ['was refused a delegation to ', { code: str(data.agentId) ?? '?' }, `: ${oneLine(str(data.reason) ?? '', 160)}`],
        }),
      );
      return;
    default:
      break;
  }
  add(timeline, make({ kind: 'internal', words: [internalWords(event.type)] }));
}

/** The CLI's bookkeeping in a few words (the raw event is one click away). */
function internalWords(type: string): string {
  const known: Record<string, string> = {
    'cli.assistant.turn_start': 'began a turn',
    'cli.assistant.turn_end': 'ended a turn',
    'cli.assistant.usage': 'reported token use',
    'cli.session.usage_info': 'reported context size',
    'cli.session.idle': 'went idle',
    'cli.assistant.message_delta': 'streamed part of a message',
    'cli.assistant.message': 'ended a message without text',
    'cli.user.message': 'was sent its prompt',
    'session.created': 'had its CLI session created',
    'session.started': 'had its CLI session started',
    'session.message_sent': 'was sent a message',
    'run.progress': 'reported progress of a run below it',
    'run.ended': 'was told a run it owns ended',
  };
  return known[type] ?? `recorded ${type}`;
}

/** What the timeline shows: the run picked in the tree (or all), one kind (or every kind but `internal`), the search. */
export interface TimelineQuery {
  runId?: string;
  kind?: StepKind;
  search?: string;
}

export function stepMatches(step: TimelineStep, query: TimelineQuery, needle = query.search?.trim().toLowerCase() ?? ''): boolean {
  if (query.runId && step.runId !== query.runId) return false;
  if (query.kind ? step.kind !== query.kind : step.kind === 'internal') return false;
  return needle === '' || step.searchText.includes(needle);
}

/** One row of the timeline list: an agent's heading where the agent changes, or a step. */
export type TimelineRow = { kind: 'agent'; key: string; agent: string; runId: string } | { kind: 'step'; key: string; step: TimelineStep };

/**
 * The rows to show, oldest first: the steps the query keeps, under a heading each time the run (or the
 * sub-agent inside it) doing them changes, so a run's consecutive steps read as one block. O(steps).
 */
export function timelineRows(steps: readonly TimelineStep[], query: TimelineQuery): TimelineRow[] {
  const needle = query.search?.trim().toLowerCase() ?? '';
  const rows: TimelineRow[] = [];
  let last = '';
  for (const step of steps) {
    if (!stepMatches(step, query, needle)) continue;
    const who = `${step.runId}\n${step.agent}`;
    if (who !== last) {
      rows.push({ kind: 'agent', key: `h${step.key}`, agent: step.agent, runId: step.runId });
      last = who;
    }
    rows.push({ kind: 'step', key: step.key, step });
  }
  return rows;
}

/**
 * Keeps the newest steps when there are more than `cap`: the oldest `drop` go (the audit log has every
 * event), and the open tool calls and questions shift with them. Returns how many were dropped.
 */
/** The step of a tool call (a checkpoint names its call): undefined when the page does not have it (not yet, or dropped). */
export function stepOfToolCall(timeline: Timeline, toolCallId: string): TimelineStep | undefined {
  const index = timeline.tools.get(toolCallId);
  return index === undefined ? undefined : timeline.steps[index];
}

export function dropOldSteps(timeline: Timeline, cap: number, drop: number): number {
  if (timeline.steps.length <= cap) return 0;
  for (const step of timeline.steps.splice(0, drop)) timeline.counts.set(step.kind, (timeline.counts.get(step.kind) ?? 1) - 1);
  for (const [runId, said] of timeline.lastSaid) {
    if (said.index < drop) timeline.lastSaid.delete(runId);
    else said.index -= drop;
  }
  for (const open of [timeline.tools, timeline.questions])
    for (const [id, index] of open) {
      if (index < drop) open.delete(id);
      else open.set(id, index - drop);
    }
  return drop;
}
