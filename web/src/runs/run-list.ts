// What the runs list sends and shows: the filter form's fields as the API's RunFilterInput, and the
// colour family of a run status.

export const RUN_STATUSES = ['running', 'completed', 'failed', 'stopped', 'interrupted'] as const;

export interface RunFilterFields {
  status?: string;
  agentId?: string;
  rootRunId?: string;
  /** datetime-local values (the reader's local time), as the inputs give them. */
  startedFrom?: string;
  startedTo?: string;
}

export interface RunFilter {
  status?: string;
  agentId?: string;
  rootRunId?: string;
  startedFrom?: string;
  startedTo?: string;
}

/** Only the fields with a value, trimmed; times from the reader's local time to ISO (UTC). */
export function runFilterOf(fields: RunFilterFields): RunFilter {
  const filter: RunFilter = {};
  for (const key of ['status', 'agentId', 'rootRunId'] as const) {
    const value = fields[key]?.trim();
    if (value) filter[key] = value;
  }
  for (const key of ['startedFrom', 'startedTo'] as const) {
    const value = fields[key]?.trim();
    if (!value) continue;
    const time = new Date(value);
    if (!Number.isNaN(time.getTime())) filter[key] = time.toISOString();
  }
  return filter;
}

/** The badge colour of a run status: working, done, needing attention, stopped. */
export function runStatusTone(status: string): 'live' | 'done' | 'attention' | 'over' {
  if (status === 'running') return 'live';
  if (status === 'completed') return 'done';
  if (status === 'failed' || status === 'interrupted' || status === 'paused') return 'attention';
  return 'over';
}

/** The actions a run's status allows: Stop while it runs, Resume once interrupted or stopped. */
export function runActionsFor(status: string): Array<'stop' | 'resume'> {
  if (status === 'running' || status === 'paused') return ['stop'];
  if (status === 'interrupted' || status === 'stopped') return ['resume'];
  return [];
}

/** Who a run's start names (GraphQL Run.startedBy); absent on runs started before it was recorded. */
export interface StartedBy {
  kind: string;
  name: string;
  via?: string | null;
}

/** Where a person's or key's request came from (`via`), as the words after their name. */
const VIA_TEXT: Readonly<Record<string, string>> = {
  console: ' in the console',
  api: ' through the API',
  mcp: ' through MCP',
  a2a: ' through A2A',
};

/**
 * Who started a run, in words, from what the run itself records: the schedule that fired it, else the
 * actor of its run.started (a person, a key, an agent, Switchboard); for older runs, its owner thread.
 */
export function startedByText(run: {
  startedBy?: StartedBy | null;
  scheduledBy?: { schedule?: { name: string } | null } | null;
  ownerThreadId: string;
}): string {
  if (run.scheduledBy) return run.scheduledBy.schedule ? `schedule ${run.scheduledBy.schedule.name}` : 'a schedule (deleted)';
  const by = run.startedBy;
  if (by) {
    const via = (by.via && VIA_TEXT[by.via]) ?? '';
    if (by.kind === 'user') return `${by.name}${via}`;
    if (by.kind === 'key') return `key ${by.name}${via}`;
    if (by.kind === 'agent') return `agent ${by.name}`;
    return 'Switchboard';
  }
  return run.ownerThreadId === 'api' ? 'the API' : 'an agent in a chat';
}

/**
 * "replay" or "fork" for a run of a replay's or a fork's tree, its original in `of` (absent for a run
 * that had none and went live), else undefined. Every run of a fork's tree is a fork (issue 39: its
 * children read "replay"): the mode comes from the run's own start (`replayMode`), not from `forkedFrom`,
 * which only a fork's root has.
 */
export function replayMarkOf(run: {
  replayOf?: string | null;
  replayMode?: string | null;
  forkedFrom?: { runId: string } | null;
}): { kind: 'replay' | 'fork'; of?: string } | undefined {
  const kind = run.forkedFrom || run.replayMode === 'fork' ? 'fork' : run.replayMode === 'replay' || run.replayOf ? 'replay' : undefined;
  if (!kind) return undefined;
  const of = run.forkedFrom?.runId ?? run.replayOf;
  return of ? { kind, of } : { kind };
}

/**
 * A run's status as the page shows it: a running run under a pause (its own, an ancestor's or its
 * session's, which holds the whole subtree) is `paused`. The header and every tree row read this one derivation.
 */
export function statusUnderPause(status: string, paused: boolean): string {
  return paused && (status === 'running' || status === 'paused') ? 'paused' : status;
}
